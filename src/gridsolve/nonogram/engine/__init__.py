"""The native nonogram engine: a thin Python face over the compiled core (``_core``).

``solve`` is a generator of solutions; ``analyse`` runs it up to a count and reports a
status; ``first``, ``count`` and ``unique`` are small functions on top. Every grid is checked
by the model's independent ``is_solution`` before it leaves this module.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from gridsolve.errors import GridsolveError, LimitReached
import gridsolve.nonogram.engine._core as _core
from gridsolve.nonogram.model import Grid, Puzzle, is_solution

__all__ = ["SearchLimits", "Result", "Status", "Event", "solve", "analyse", "first", "count",
           "unique", "solve_line", "line_shares", "status_of", "Team", "IMPLICATION_MAX_CELLS"]

Status = Literal["unique", "multiple", "none", "unknown"]

#: An observer of the search: called as ``event(kind, a, b, c, cells)``; see core.h (EV_*).
Event = Callable[[int, int, int, int, tuple[int, ...]], None]


@dataclass(frozen=True)
class SearchLimits:
    """When to give up: a node budget and/or wall-clock seconds (None = no limit)."""

    max_nodes: int | None = None
    timeout: float | None = None


@dataclass(frozen=True)
class Result:
    """What a search found: status, solutions (up to the count asked), and its cost.

    ``partial`` is the grid of cells proven at the root ('?' where unknown), useful when the
    status is "unknown" or "multiple"."""

    status: Status
    solutions: tuple[Grid, ...]
    nodes: int
    seconds: float
    partial: Grid
    stats: dict[str, int] = field(default_factory=dict, compare=False)


def _rows(data: bytes, width: int) -> Grid:
    text = data.decode("ascii")
    return tuple(text[i:i + width] for i in range(0, len(text), width))


def _solution(puzzle: Puzzle, core: _core.Search) -> Grid:
    """The solution a core search stands on, checked against the clues."""
    grid = _rows(core.grid(), puzzle.width)
    if not is_solution(puzzle, grid):  # pragma: no cover - a bug in the core
        raise GridsolveError("internal error: the engine produced a grid that breaks "
                             "the clues; please report this puzzle")
    return grid


#: Node budget of the first restart run; later runs get Luby multiples of it.
RESTART_BASE = 100


def luby() -> Iterator[int]:
    """The Luby sequence 1 1 2 1 1 2 4 1 1 2 ... (Luby, Sinclair & Zuckerman 1993)."""
    i = 1
    while True:
        k = i.bit_length()
        j = i
        while j != (1 << k) - 1:  # descend to the prefix that i's position repeats
            j -= (1 << (k - 1)) - 1
            k = j.bit_length()
        yield 1 << (k - 1)
        i += 1


class _Search:
    """One native search over one puzzle, resumable solution by solution.

    With ``restarts``, the first solution is sought by runs with Luby node budgets,
    randomised after the first run; then one complete search, trying the first solution's
    values first, walks straight back to it and enumerates the rest (every other solution,
    or the proof there is none). Depth-first search has a heavy tail on some puzzles (taai2011
    #454: 49 to over 14,000 nodes depending on tie-breaks; restarts solve it in 1.1 s instead
    of over 30 s), but on a sample of 30 taai2011 puzzles (#410-#990) restarts cost 23% more
    in total (73 s plain, 90 s with base 100), so plain depth-first search is the default.
    With an event observer the search is always one plain depth-first search.
    """

    def __init__(self, puzzle: Puzzle, probing: bool = True, on_event: Event | None = None,
                 restarts: bool = False, implications: bool = True) -> None:
        self.puzzle = puzzle
        self.core = _core.Search(puzzle.rows, puzzle.cols, probing, on_event, implications)
        self.restarts = restarts and on_event is None
        self.started = time.perf_counter()

    def _next(self, limits: SearchLimits, budget: int | None = None) -> int:
        timeout = -1.0
        if limits.timeout is not None:
            timeout = max(0.0, limits.timeout - (time.perf_counter() - self.started))
        max_nodes = -1 if limits.max_nodes is None else limits.max_nodes
        if budget is not None:
            cap = self.core.stats()["nodes"] + budget
            max_nodes = cap if max_nodes < 0 else min(max_nodes, cap)
        return int(self.core.next(max_nodes, timeout))

    def _limit_reached(self, limits: SearchLimits) -> bool:
        stats = self.core.stats()
        return bool(stats["timed_out"]) or (limits.max_nodes is not None
                                            and stats["nodes"] >= limits.max_nodes)

    def _grid(self) -> Grid:
        return _solution(self.puzzle, self.core)

    def _stop(self) -> LimitReached:
        return LimitReached("search limit reached", partial=self.partial(),
                            nodes=self.core.stats()["nodes"])

    def _first_by_restarts(self, limits: SearchLimits) -> Grid | None:
        for run, budget in enumerate(luby()):
            if run and not self.core.restart(run):
                raise self._stop()
            code = self._next(limits, budget * RESTART_BASE)
            if code == _core.EXHAUSTED:  # a whole tree searched: there is no solution
                return None
            if code == _core.SOLUTION:
                return self._grid()
            if self._limit_reached(limits):
                raise self._stop()
        raise AssertionError("unreachable")  # pragma: no cover

    def run(self, limits: SearchLimits) -> Iterator[Grid]:
        skip: Grid | None = None
        if self.restarts:
            skip = self._first_by_restarts(limits)
            if skip is None:
                return
            yield skip
            self.core.restart(0, "".join(skip).encode("ascii"))
        while True:
            code = self._next(limits)
            if code == _core.EXHAUSTED:
                return
            if code == _core.LIMIT:
                raise self._stop()
            grid = self._grid()
            if grid == skip:  # the first solution again, already given
                skip = None
                continue
            yield grid

    def partial(self) -> Grid:
        return _rows(self.core.root(), self.puzzle.width)


def solve(puzzle: Puzzle, limits: SearchLimits = SearchLimits(), *, probing: bool = True,
          on_event: Event | None = None, restarts: bool = False,
          implications: bool = True) -> Iterator[Grid]:
    """Yield every solution of the puzzle (raises LimitReached when a limit stops the search).

    ``probing`` probes every unknown cell at every node; ``implications`` adds implication
    probing on top at the root and the first two search levels (the contrapositives of the
    probes' results; puzzles up to 1024 cells, and not while an observer watches)."""
    yield from _Search(puzzle, probing, on_event, restarts, implications).run(limits)


#: Implication probing covers puzzles of at most this many cells (NG_IMPL_MAX_CELLS in core.h).
IMPLICATION_MAX_CELLS = _core.IMPL_MAX_CELLS

#: Nodes each search of the team runs before the next takes its turn (see Team).
TEAM_SLICE = 50
#: The team's branching rules (``_core.Search``'s ``order``), in the order they join.
TEAM_ORDERS = (4, 3, 2)  # promise, sure, likely: see NG_ORDER_* in core.h
#: The other searches join when the first has run this many nodes without a solution.
TEAM_JOIN_NODES = 1000
#: The first search's restart runs: Luby multiples of this many nodes (see Team).
TEAM_RESTART_BASE = 100
#: analyse() runs a team of searches when counting to at most this many solutions.
TEAM_MAX_SOLUTIONS = 64


def status_of(found: int, max_solutions: int, complete: bool) -> Status:
    """The status of a search that found ``found`` solutions, counting to ``max_solutions``:
    "unique" only when the search was complete (exhausted) below the count."""
    exhausted = complete and found < max_solutions
    if found >= 2:
        return "multiple"
    if found == 1:
        return "unique" if exhausted else "unknown"
    return "none" if complete else "unknown"


class Team:
    """Searches of one puzzle that differ only in their branching rule (TEAM_ORDERS), run in
    turns of TEAM_SLICE nodes (a node limit pauses a search where it stands).

    Depth-first search has a heavy tail, and which rule meets it differs from puzzle to
    puzzle (taai2011 #394: 78 nodes with the "sure" rule, over 30,000 with each of the
    others; #651: 6,130 with "likely", over 30,000 with the rest). Nodes on 234 taai2011
    puzzles (#301-#997, every 3rd; count to 2, 20,000-node cap): the loose rule alone
    238,166, tight 269,373, likely 182,094, sure 155,408; the better of loose and tight on
    each puzzle 56,754, the best of all four 45,804. A team of k costs at most k times its
    best member. (Those counts are from before the conflict weights of NG_WEIGHT_BASE in core.h:
    with them, likely 72,550, sure 83,739, loose 125,898, the team of four 55,466.)
    Since the weights, *likely* goes first and *sure* second: on all 1000 taai2011 puzzles
    (30,000-node cap) the team took 241,346 nodes and 107 s that way against 246,117 and
    115 s in the old order, 421,026 and 186 s (5 capped) without weights; three weighted
    rules (no *tight*) 258,024; a fifth, unweighted *loose*, 300,028; weighted searches that
    restart (Luby, 100 nodes; the weights carry over) 327,955, or one of them first 262,684.
    Since the *promise* rule (its value keeps more solutions by an estimate over the whole
    grid), it goes first, then *sure*, *likely* and *loose*: on all 1000 taai2011 puzzles
    (30,000-node cap, process time) 208,174 nodes and 87.5 s against 241,346 and 107.4 s for
    likely, sure, loose, tight. *promise* alone took 78.3 s there (176,617 nodes), a pair of
    promise and sure 83.6 s (one capped), promise with a second promise that restarts and
    keeps its nogoods 79.6 s.
    *promise* now runs alone for its first TEAM_JOIN_NODES nodes, and then *sure* and
    *likely* join it (*loose* no longer does): on most puzzles *promise* is the best rule, and
    the others cost their share on every puzzle they join. Measured on all 1000 taai2011
    puzzles (30,000-node cap, process time, the configurations in turn on each puzzle, one
    core, the other busy): the four joining as before (the second at 50 nodes, the others at
    100) 213,301 nodes and 74.3 s; the four joining at 300 nodes 193,023 and 67.9 s, at
    1,000 189,818 and 66.0 s; *promise* alone 189,137 and 64.5 s (on the other core: the
    second at 100 and the rest at 300 192,921 and 67.4 s; the three joining at 300 180,008
    and 61.6 s). The worst puzzle, #576, took 20,622 nodes with the three against 27,247
    with the four, and #394 (24,004 for *promise* alone) needs *sure* (78 nodes).
    *promise* restarts, too, until a solution is found: its runs end after TEAM_RESTART_BASE
    times 1, 1, 2, 1, 1, 2, 4, ... nodes (Luby), each going back to the root with the nogoods
    of the runs before (``nogoods=True``: the runs together stay one complete search) and its
    line weights, so the next run branches elsewhere. The hardest taai2011 puzzles all have
    several solutions, and the first one costs nearly all the nodes (#576: 17,598 of 17,599
    for *promise*; 6,775 for *likely*, 19,907 for *sure*): the heavy tail of depth-first
    search that restarts cut (Gomes, Selman and Kautz 1998). On all 1000 (30,000-node cap,
    the searches simulated in turns, one core each): 146,755 nodes and 45.9 s against
    180,008 and 57.4 s without restarts. With each run's scores jittered by up to 20%
    (``restart(seed)``), 158,926 nodes; every member restarting 161,679 and 46.6 s; base 50
    on the 70 slowest 98,349 against 77,320 with 100; base 200 on all 160,527. Through
    ``analyse``: 44.4 s and 146,607 nodes against 54.2 s and 180,008, the worst puzzle 4.9 s
    (#590) against 6.6 s (#576); on the survey puzzles, Sierp is proven in 6.9 s (it was not
    within 60 s). The others now join after 1,000 nodes instead of 300: on all 1000
    taai2011 puzzles (simulated) 138,881 nodes and 41.0 s against 146,755 and 45.9 s; at 3,000
    133,471 and 41.9 s; *promise* alone with its restarts 122,405 and 34.9 s, but then the
    survey's Thing takes 58 s natively instead of 21 s (1,000) or 20 s (300), since it needs
    *sure* or *likely*.
    Solutions from all are pooled (each searches the whole space); when one search is
    exhausted, what it found is every solution, so the count stays exact.
    Once a solution is found, the search that found it goes on alone: further solutions are
    usually close to it, and proving there are none (a unique puzzle) takes one whole
    search, which several in turns would pay several times (9-Dom: 11.6 s for two in turns,
    5.8 s alone).

    ``run`` can be called again after it pauses (``until``), which is how ``auto`` takes
    turns between this team and a SAT solver.
    """

    def __init__(self, puzzle: Puzzle, max_solutions: int, implications: bool = True) -> None:
        self.puzzle = puzzle
        self.max_solutions = max_solutions
        self.implications = implications
        self.started = time.perf_counter()
        # the first search restarts on a Luby schedule (keeping its nogoods) until a
        # solution is found; run_end is the node count at which its current run ends
        self.searches = [self._search(TEAM_ORDERS[0], nogoods=True)]
        self.runs = luby()
        self.run_end = TEAM_RESTART_BASE * next(self.runs)
        self.restarts = 0
        self.turns = list(self.searches)  # the searches still taking turns
        self.found: dict[Grid, None] = {}
        self.complete = False   # a search was exhausted: ``found`` is every solution
        self.stopped = False    # a time limit ended a search: it cannot go on
        self.turn = 0
        self.seconds = 0.0      # time spent in earlier run() calls
        self.entered = 0.0      # when the current run() call began

    def _search(self, order: int, nogoods: bool = False) -> _core.Search:
        return _core.Search(self.puzzle.rows, self.puzzle.cols, True, None, self.implications,
                            order, nogoods=nogoods)

    def nodes(self) -> int:
        return sum(c.stats()["nodes"] for c in self.searches)

    def done(self) -> bool:
        return self.complete or self.stopped or len(self.found) >= self.max_solutions

    def run(self, limits: SearchLimits = SearchLimits(), until: float | None = None) -> bool:
        """Search on; True when the answer is known (done()), False at a limit.

        ``limits`` are final: ``max_nodes`` caps the nodes of all its searches together, and
        ``timeout`` the seconds since the team was made (a search a time limit stops cannot
        go on). ``until`` (a ``time.perf_counter()`` time) only pauses: it is checked between
        turns, which shrink from TEAM_SLICE nodes to what the time left allows at the speed
        seen so far, and a later call goes on where this one stopped."""
        self.entered = time.perf_counter()
        try:
            return self._run(limits, until)
        finally:
            self.seconds += time.perf_counter() - self.entered

    def _run(self, limits: SearchLimits, until: float | None) -> bool:
        while not self.done():
            core = self.turns[self.turn % len(self.turns)]
            total = self.nodes()
            if limits.max_nodes is not None and total >= limits.max_nodes:
                return False
            now = time.perf_counter()
            if until is not None and now >= until:
                return False
            size = TEAM_SLICE
            if until is not None and total:
                per_node = (self.seconds + now - self.entered) / total
                size = max(1, min(size, int((until - now) / max(per_node, 1e-9))))
            budget = core.stats()["nodes"] + size
            if limits.max_nodes is not None:
                budget = min(budget, core.stats()["nodes"] + limits.max_nodes - total)
            restarting = core is self.searches[0] and not self.found
            if restarting:
                budget = min(budget, self.run_end)
            timeout = -1.0
            if limits.timeout is not None:
                timeout = max(0.0, limits.timeout - (now - self.started))
            while len(self.found) < self.max_solutions:
                code = int(core.next(budget, timeout))
                if code == _core.SOLUTION:
                    self.found.setdefault(_solution(self.puzzle, core), None)
                    self.turns = [core]  # the rest is this search's to finish (see above)
                    continue
                if code == _core.EXHAUSTED:
                    self.complete = True
                elif core.stats()["timed_out"]:
                    self.stopped = True
                elif restarting and not self.found and core.stats()["nodes"] >= self.run_end:
                    self._restart(core)
                break
            self._widen()
            self.turn += 1
        return True

    def _restart(self, core: _core.Search) -> None:
        """End the first search's run: back to its root, with the nogoods of the run."""
        core.restart(0)
        self.restarts += 1
        self.run_end = core.stats()["nodes"] + TEAM_RESTART_BASE * next(self.runs)

    def _widen(self) -> None:
        """Let the next searches join when the first has run long enough without a
        solution (see the class docstring)."""
        if self.done() or len(self.turns) < len(self.searches):  # a search goes on alone
            return
        if (len(self.searches) == 1
                and self.searches[0].stats()["nodes"] >= TEAM_JOIN_NODES):
            self.searches += [self._search(o) for o in TEAM_ORDERS[1:]]
            self.turns = list(self.searches)

    def stats(self) -> dict[str, int]:
        stats: dict[str, int] = {}
        for c in self.searches:
            for k, v in c.stats().items():
                stats[k] = (max(stats.get(k, 0), v) if k in ("max_depth", "root_complete",
                                                              "timed_out")
                            else stats.get(k, 0) + v)
        stats["searches"] = len(self.searches)
        stats["restarts"] = self.restarts
        return stats

    def partial(self) -> Grid:
        """The cells proven at the root of the first search: by propagation and probing, and
        once it has restarted also by the nogoods of its earlier runs (each names a part of
        the search proven to hold no solution, so what they fix is as certain)."""
        return _rows(self.searches[0].root(), self.puzzle.width)

    def result(self) -> Result:
        solutions = tuple(self.found)[:self.max_solutions]
        stats = self.stats()
        return Result(status_of(len(solutions), self.max_solutions, self.complete), solutions,
                      stats["nodes"], time.perf_counter() - self.started, self.partial(), stats)


def analyse(puzzle: Puzzle, max_solutions: int = 2, limits: SearchLimits = SearchLimits(), *,
            probing: bool = True, on_event: Event | None = None,
            restarts: bool = False, implications: bool = True, team: bool = True) -> Result:
    """Search up to ``max_solutions`` solutions and say whether the puzzle is unique.

    With probing, no observer and no restarts, and counting to at most TEAM_MAX_SOLUTIONS,
    a team of searches runs in turns (see Team); ``team=False`` keeps to one."""
    if (team and probing and on_event is None and not restarts
            and max_solutions <= TEAM_MAX_SOLUTIONS):
        searches = Team(puzzle, max_solutions, implications)
        searches.run(limits)
        return searches.result()
    search = _Search(puzzle, probing, on_event, restarts, implications)
    found: list[Grid] = []
    complete = True
    try:
        for grid in search.run(limits):
            found.append(grid)
            if len(found) >= max_solutions:
                break
    except LimitReached:
        complete = False
    stats = search.core.stats()
    return Result(status_of(len(found), max_solutions, complete), tuple(found), stats["nodes"],
                  time.perf_counter() - search.started, search.partial(), stats)


def first(puzzle: Puzzle, limits: SearchLimits = SearchLimits()) -> Grid | None:
    """One solution, or None if there is none."""
    return next(solve(puzzle, limits), None)


def count(puzzle: Puzzle, limit: int | None = None, limits: SearchLimits = SearchLimits()) -> int:
    """How many solutions (stopping at ``limit`` if given); exact when below the limit."""
    n = 0
    for _ in solve(puzzle, limits):
        n += 1
        if limit is not None and n >= limit:
            break
    return n


def unique(puzzle: Puzzle, limits: SearchLimits = SearchLimits()) -> bool:
    """Is there exactly one solution? (proven by exhausting the search)"""
    return count(puzzle, 2, limits) == 1


def solve_line(clue: tuple[int, ...], line: str, bits: bool = True) -> str | None:
    """The compiled line solver: narrow a line of '#', '.', '?' to what the clue forces.

    Lines of up to 63 cells go to the bit-parallel solver the search uses for them, unless
    ``bits`` is False (then the byte DP, which longer lines always use)."""
    out = _core.solve_line(clue, line.encode("ascii"), bits)
    return None if out is None else out.decode("ascii")


def line_shares(clue: tuple[int, ...], line: str) -> tuple[float, ...] | None:
    """For each cell of a line of '#', '.', '?', the share of the clue's arrangements that fit
    the line in which the cell is filled; None if none fits, or if there are more than
    10^300 (counted in floating point). These are the counts the "likely" and "sure"
    branching rules go by (see Team); without them the rules go by the probes alone."""
    return _core.line_shares(clue, line.encode("ascii"))
