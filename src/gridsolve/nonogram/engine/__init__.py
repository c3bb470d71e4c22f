"""The nonogram engine's one face over both compiled cores (``cores.engine_for`` picks one).

``solve`` is a generator of solutions; ``analyse`` runs it up to a count and reports a
status; ``first``, ``count`` and ``unique`` are small functions on top. They take either kind
of puzzle: a black-and-white ``Puzzle`` (``_core``) or a ``ColourPuzzle`` (``_colour``).
Every grid is checked by the model's independent solution check before it leaves here.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar, cast

from gridsolve.errors import LimitReached
from gridsolve.nonogram.engine.cores import (Abilities, CoreSearch, Options, abilities,
                                             checked_grid, engine_for)
from gridsolve.nonogram.engine.lines import IMPLICATION_MAX_CELLS, line_shares, solve_line
from gridsolve.nonogram.engine.results import (DEFAULT_MAX_MEMORY, Event, Progress, Result,
                                               SearchLimits,
                                               Status, deadline_of, exhausted_of, least,
                                               passed, repooled, seconds_left, settled,
                                               status_of)
from gridsolve.nonogram.engine.team import Team, luby, team_for
from gridsolve.nonogram.engine.nearby import moves_for_count
from gridsolve.nonogram.model import AnyPuzzle, ColourPuzzle, Grid, Puzzle
from gridsolve.nonogram.policy import DEFAULT_POLICY, Policy

__all__ = ["SearchLimits", "Result", "Status", "Event", "Progress", "Abilities", "abilities",
           "solve", "analyse", "first", "count",
           "unique", "analyse_colour", "ColourRoot", "solve_line", "line_shares", "status_of",
           "exhausted_of", "settled", "repooled", "Team", "IMPLICATION_MAX_CELLS",
           "DEFAULT_MAX_MEMORY", "deadline_of", "seconds_left", "passed", "least"]

#: Node budget of the first restart run of ``solve(..., restarts=True)``; later runs get Luby
#: multiples of it.
RESTART_BASE = 100

P = TypeVar("P", bound=AnyPuzzle)


class _ColourCore(CoreSearch, Protocol):
    """A colour core search that keeps its root's masks and implications."""

    def root_masks(self) -> bytes: ...
    def root_implications(self) -> bytes: ...


class _Restarting(CoreSearch, Protocol):
    """A core search that can go back to its root (black and white only)."""

    def restart(self, seed: int = ..., guide: bytes | None = ...) -> bool: ...


class _Search(Generic[P]):
    """One compiled search over one puzzle, resumable solution by solution.

    With ``restarts`` (black and white), the first solution is sought by runs with Luby node
    budgets, randomised after the first run; then one complete search, trying the first
    solution's values first, walks straight back to it and enumerates the rest (every other
    solution, or the proof there is none). Off by default, and always off while an observer
    watches: docs/decisions/0003-team-restarts.md.
    """

    def __init__(self, puzzle: P, options: Options) -> None:
        self.puzzle = puzzle
        self.engine = engine_for(puzzle)
        self.core = self.engine.search(puzzle, options)
        self.restarts = options.restarts and options.on_event is None
        self.started = time.perf_counter()
        self.work_end: int | None = None  # a pause after this much work (``run``'s ``work``)

    def _next(self, limits: SearchLimits, budget: int | None = None) -> str:
        left = seconds_left(limits.deadline(self.started))
        timeout = -1.0 if left is None else left  # (-1: none, as the core takes it)
        max_nodes = -1 if limits.max_nodes is None else limits.max_nodes
        if budget is not None:
            cap = self.core.stats()["nodes"] + budget
            max_nodes = cap if max_nodes < 0 else min(max_nodes, cap)
        # a search under a work budget stops there for good, inside a node if need be (the
        # colour core cannot resume after a limit, and nothing resumes a single search); the
        # core reads 0 as no budget, so a budget already spent ends here
        max_work = -1
        if self.work_end is not None:
            if self.core.stats()["line_solves"] >= self.work_end:
                return "limit"
            max_work = self.work_end
        return self.engine.outcomes[int(self.core.next(max_nodes, timeout, max_work))]

    def _limit_reached(self, limits: SearchLimits) -> bool:
        stats = self.core.stats()
        return (bool(stats["timed_out"])
                or (limits.max_nodes is not None and stats["nodes"] >= limits.max_nodes)
                or (self.work_end is not None and stats["line_solves"] >= self.work_end))

    def _grid(self) -> Grid:
        return checked_grid(self.engine, self.puzzle, self.core.grid())

    def _stop(self) -> LimitReached:
        return LimitReached("search limit reached", partial=self.partial(),
                            nodes=self.core.stats()["nodes"])

    def _first_by_restarts(self, core: _Restarting, limits: SearchLimits) -> Grid | None:
        for run, budget in enumerate(luby()):
            if run and not core.restart(run):
                raise self._stop()
            outcome = self._next(limits, budget * RESTART_BASE)
            if outcome == "exhausted":  # a whole tree searched: there is no solution
                return None
            if outcome == "solution":
                return self._grid()
            if self._limit_reached(limits):
                raise self._stop()
        raise AssertionError("unreachable")  # pragma: no cover

    def run(self, limits: SearchLimits, work: int | None = None) -> Iterator[Grid]:
        """Every solution, or LimitReached at ``limits`` or once ``work`` (line solves) more
        are done (the core's work budget: the same step on every machine; it stops the
        search for good)."""
        if work is not None:
            self.work_end = self.core.stats()["line_solves"] + work
        skip: Grid | None = None
        if self.restarts:
            core = cast(_Restarting, self.core)  # engines without restart refuse the option
            skip = self._first_by_restarts(core, limits)
            if skip is None:
                return
            yield skip
            core.restart(0, "".join(skip).encode("ascii"))
        while True:
            outcome = self._next(limits)
            if outcome == "exhausted":
                return
            if outcome == "limit":
                raise self._stop()
            grid = self._grid()
            if grid == skip:  # the first solution again, already given
                skip = None
                continue
            yield grid

    def partial(self) -> Grid:
        return self.engine.read(self.puzzle, self.core.root())


def solve(puzzle: AnyPuzzle, limits: SearchLimits = SearchLimits(), *, probing: bool = True,
          on_event: Event | None = None, restarts: bool = False,
          implications: bool = True, known: Grid | None = None) -> Iterator[Grid]:
    """Yield every solution of the puzzle (raises LimitReached when a limit stops the search).

    ``probing`` probes every unknown cell at every node; ``implications`` adds implication
    probing on top at the root and the first two search levels (the contrapositives of the
    probes' results; black-and-white puzzles up to IMPLICATION_MAX_CELLS cells, and not while
    an observer watches). ``restarts`` are for black-and-white puzzles; ``on_event`` (an
    observer of every step: core.h's events, colour.h's for a colour puzzle) and ``known``
    (cells set before the search: '#' filled and '.' empty, or a colour puzzle's palette
    symbols; anything else open; only the solutions that agree are found) for either."""
    options = Options(probing, implications, on_event, restarts, known)
    yield from _Search(puzzle, options).run(limits)


def analyse(puzzle: AnyPuzzle, max_solutions: int = 2, limits: SearchLimits = SearchLimits(),
            *, probing: bool = True, on_event: Event | None = None,
            restarts: bool = False, implications: bool = True, team: bool = True,
            known: Grid | None = None, dive: bool = True,
            policy: Policy = DEFAULT_POLICY, progress: Progress | None = None) -> Result:
    """Search up to ``max_solutions`` solutions and say whether the puzzle is unique.

    When the puzzle's engine has a team (black and white), with probing, no observer, no
    restarts and no ``known`` cells (see ``solve``), and counting to at most the policy's
    ``team_max_solutions``, a team of searches runs in turns (see Team), and with ``dive``
    on the puzzles it is for, the dive by belief propagation in turns with it
    (``Team.solve``); ``team=False`` keeps to one search; ``policy`` holds the team's
    numbers. A colour puzzle of the colour dive's sizes (``colour_dive.colour_dives``), under
    the same conditions, known cells allowed, gets the colour dive in turns with its search
    (``colour_dive.ColourTurns``). With ``known``, the status is of the solutions that agree
    with those cells ("none": no solution does). ``progress`` is told the nodes and solutions
    as they grow."""
    options = Options(probing, implications, on_event, restarts, known)
    searches = None
    if (team and probing and on_event is None and not restarts and known is None
            and max_solutions <= policy.team_max_solutions):
        searches = team_for(puzzle, max_solutions, implications, policy)
    if searches is not None:
        searches.report_to(progress)
        if dive:
            searches.solve(limits)
        else:
            searches.run(limits)
        return searches.result()
    if (team and dive and isinstance(puzzle, ColourPuzzle) and probing and on_event is None
            and not restarts and max_solutions <= policy.team_max_solutions):
        # the colour dive in turns with the plain colour search, where it is for (imported
        # for colour puzzles only)
        from gridsolve.nonogram.engine.colour_dive import ColourTurns, colour_dives
        if colour_dives(puzzle, policy):
            turns = ColourTurns(puzzle, max_solutions, known=known, policy=policy)
            turns.report_to(progress)
            turns.solve(limits)
            return turns.result()
    return _counted(_Search(puzzle, options), max_solutions, limits)


def _counted(search: _Search[P], max_solutions: int, limits: SearchLimits,
             work: int | None = None) -> Result:
    """One search's Result, run up to ``max_solutions`` solutions, a limit or ``work``."""
    found: list[Grid] = []
    complete = True
    try:
        for grid in search.run(limits, work):
            found.append(grid)
            if len(found) >= max_solutions:
                break
    except LimitReached:
        complete = False
    stats = search.core.stats()
    return Result.of_count(tuple(found), max_solutions, complete, stats["nodes"],
                           time.perf_counter() - search.started, search.partial(), stats)


@dataclass(frozen=True)
class ColourRoot:
    """What a colour search proved at its root, for a SAT hand-over (``cnf.colour_root_clauses``):
    each cell's colours still possible (``masks``: one native uint32 per cell, bit c for
    colour c) and what each probe there narrowed (``implications``: native uint32 records of
    cell * colours + colour, n, then n pairs (cell, its mask under that probe)). Both are
    consequences of the clues."""

    masks: bytes
    implications: bytes

    @classmethod
    def of(cls, core: _ColourCore, keep: bool = True) -> ColourRoot:
        """What ``core`` proved at its root; nothing (both empty) unless ``keep``."""
        return cls(core.root_masks(), core.root_implications()) if keep else cls(b"", b"")


def analyse_colour(puzzle: ColourPuzzle, max_solutions: int = 2,
                   limits: SearchLimits = SearchLimits(), *,
                   keep_root: bool = True, work: int | None = None, dive: bool = False,
                   policy: Policy = DEFAULT_POLICY) -> tuple[Result, ColourRoot]:
    """``analyse`` of a colour puzzle (one search, with probing), keeping what its root proved
    (``ColourRoot``) for a SAT hand-over to start from, as ``Team.root_implications`` does
    for black and white: when a limit stopped the root's probing, what it had proved so far
    (facts too: a probe cut short is undone and not kept). ``keep_root=False`` keeps nothing
    (an empty ``ColourRoot``). ``work`` ends the search after that many line solves (a
    turn that repeats exactly, where a time limit would not). With ``dive``, on the puzzles
    it is for (``colour_dive.colour_dives``), the colour dive and the search take turns in
    that work (``ColourTurns.solve``: the dive first), and the root is the search's."""
    core: _ColourCore
    from gridsolve.nonogram.engine.colour_dive import ColourTurns, colour_dives
    if dive and colour_dives(puzzle, policy):
        turns = ColourTurns(puzzle, max_solutions, keep_root=keep_root, policy=policy)
        turns.solve(limits, work)
        result, core = turns.result(), turns.plain
    else:
        search = _Search(puzzle, Options(root_implications=keep_root))
        result = _counted(search, max_solutions, limits, work)
        core = cast(_ColourCore, search.core)
    return result, ColourRoot.of(core, keep_root)


def first(puzzle: AnyPuzzle, limits: SearchLimits = SearchLimits()) -> Grid | None:
    """One solution, or None if there is none."""
    return next(solve(puzzle, limits), None)


def count(puzzle: AnyPuzzle, limit: int | None = None,
          limits: SearchLimits = SearchLimits()) -> int:
    """How many solutions (stopping at ``limit`` if given); exact when below the limit.

    Under a limit, each solution of a black-and-white puzzle found after a branch (one found
    without is the only one) is first tried for neighbours by local moves (``nearby``); the
    search skips them when it meets them again."""
    seen: dict[Grid, None] = {}
    deadline = limits.deadline()
    search = _Search(puzzle, Options())
    for grid in search.run(limits):
        seen[grid] = None
        if (limit is not None and abilities(puzzle).moves
                and search.core.stats()["max_depth"] > 0):
            for other in moves_for_count(cast(Puzzle, puzzle), grid, seen, limit, deadline):
                seen[other] = None
        if limit is not None and len(seen) >= limit:
            break
    return len(seen)


def unique(puzzle: AnyPuzzle, limits: SearchLimits = SearchLimits()) -> bool:
    """Is there exactly one solution? (proven by exhausting the search)"""
    return count(puzzle, 2, limits) == 1
