"""A team of black-and-white searches that differ in their branching rule, run in turns.

Depth-first search has a heavy tail, and which branching rule meets it differs from puzzle
to puzzle; restarts cut the tail of the first solution (Gomes, Selman & Kautz 1998; the
schedule is Luby, Sinclair & Zuckerman 1993). The measurements behind the rule are in
docs/decisions/0002-team-of-branching-rules.md and 0003-team-restarts.md.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Iterator
from typing import cast

import gridsolve.nonogram.engine._core as _core
from gridsolve.nonogram.engine.cores import BLACK_AND_WHITE, checked_grid, engine_for
from gridsolve.nonogram.engine.lines import IMPLICATION_MAX_CELLS
from gridsolve.nonogram.engine.nearby import MOVES_MAX_SOLUTIONS, moves_for_count
from gridsolve.nonogram.engine.results import (Result, SearchLimits, least, passed,
                                               seconds_left)
from gridsolve.nonogram.model import AnyPuzzle, Grid, Puzzle

__all__ = ["Team", "team_for", "implication_pairs", "luby", "TEAM_SLICE", "TEAM_ORDERS",
           "TEAM_JOIN_NODES", "TEAM_RESTART_BASE", "TEAM_MAX_SOLUTIONS", "MOVES_MAX_SOLUTIONS",
           "DIVE_SLICE", "DIVE_RESTART_FAILS", "DIVE_PROBE_SHARE", "DIVE_MIN_CELLS", "DIVE_MAX_CELLS",
           "DIVE_FIRST_SECONDS", "DIVE_FIRST_FAILS", "TURNS_FIRST", "TURNS_SHARE", "dives"]

#: Nodes each search of the team runs before the next takes its turn (see Team).
TEAM_SLICE = 50
#: The team's branching rules (``_core.Search``'s ``order``), in the order they join.
TEAM_ORDERS = (_core.ORDER_PROMISE, _core.ORDER_LIKELY)
#: The other searches join when the first has run this many nodes without a solution.
TEAM_JOIN_NODES = 1000
#: The first search's restart runs: Luby multiples of this many nodes (see Team).
TEAM_RESTART_BASE = 100
#: analyse() runs a team of searches when counting to at most this many solutions.
TEAM_MAX_SOLUTIONS = 64
#: The dive (``Team.dive``) runs in slices of this many nodes between looks at the clock.
DIVE_SLICE = 10
#: Until it finds a solution, the dive restarts after this many failed nodes times 1, 1, 2,
#: 1, 1, 2, 4, ... (Luby), each run with a randomised order and the nogoods of the runs before.
DIVE_RESTART_FAILS = 100
#: The dive does not probe (belief propagation orders it, and a probe at every node of a
#: 100x100 costs about 10x a node), except at the nodes where at most this share of the cells
#: is open. There a probe is cheap, and it refutes a wrong guess above the node where the line
#: solver alone would fail deep below it. The dive alone, wall s over 60 random 70x70 and 15
#: random 100x100 (other seeds than the benchmark's): 76.0 s (5 unsolved) against 49.1 s (3);
#: 79.9 s (2) against 71.8 s (1) (docs/decisions/0033).
DIVE_PROBE_SHARE = 0.35
#: The dive is for puzzles of at most this many cells: belief propagation passes over every
#: line at every recomputation (a 200x200 round is about 10 ms).
DIVE_MAX_CELLS = 40_000
#: ... and of more than this many (auto's AUTO_SMALL_CELLS too): smaller puzzles are the
#: team's (tournament puzzles, where the dive beside the team made first solutions twice as
#: slow).
DIVE_MIN_CELLS = IMPLICATION_MAX_CELLS
#: After the team's first turn, the dive's first turn ends after this many failed nodes or
#: seconds: where it finds a first solution it does so in one descent without a failure
#: (random 50x50 0.1-0.2 s, 70x70 0.3-1 s, 100x100 1.2-2 s), and where it fails its turn
#: costs about one descent (Gettys 0.36 s, Thing 0.06 s; docs/decisions/0028). The failed
#: nodes bound the work; the seconds only the largest puzzles' (a 100x100 descent took
#: 2.2-3 s on a busy machine).
DIVE_FIRST_SECONDS = 5.0
DIVE_FIRST_FAILS = 20
#: ``Team.solve`` (the native engine alone, on the puzzles the dive is for): the team's
#: first turn (seconds, as auto's on large puzzles), then the dive's first, then the team and
#: the dive in equal turns of TURNS_SHARE seconds, each pair twice the last
#: (docs/decisions/0031).
TURNS_FIRST = 0.1
TURNS_SHARE = 0.5


def dives(puzzle: Puzzle) -> bool:
    """Is the dive (``Team.dive``) for this puzzle: more than DIVE_MIN_CELLS cells and at most
    DIVE_MAX_CELLS."""
    return DIVE_MIN_CELLS < puzzle.width * puzzle.height <= DIVE_MAX_CELLS


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


class Team:
    """Searches of one puzzle that differ only in their branching rule (TEAM_ORDERS), run in
    turns of TEAM_SLICE nodes (a node limit pauses a search where it stands).

    The rule: *promise* runs alone, restarting after TEAM_RESTART_BASE times 1, 1, 2, 1, 1,
    2, 4, ... nodes (Luby) with the nogoods of its earlier runs (so the runs together stay
    one complete search) and its line weights, until it finds a solution; after
    TEAM_JOIN_NODES nodes without one, *likely* joins it in turns. When a solution's search
    has not found another within TEAM_SLICE nodes, local moves look next to it (``_moves``).
    Solutions from
    all are pooled (each searches the whole space); when one search is exhausted, what it
    found is every solution, so the count stays exact. Once a solution is found, the search
    that found it goes on alone: further solutions are usually close to it, and proving
    there are none takes one whole search, which several in turns would pay several times.

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
        self.searches = [self._search(TEAM_ORDERS[0], nogoods=True, root_implications=True)]
        self.runs = luby()
        self.run_end = TEAM_RESTART_BASE * next(self.runs)
        self.restarts = 0
        self.nearby = 0  # solutions found by local moves (``_moves``)
        self.pending: list[tuple[Grid, int]] = []  # solutions, and the nodes when found
        self.turns = list(self.searches)  # the searches still taking turns
        self.found: dict[Grid, None] = {}
        self.reached = 0        # the nodes when a search last stood on a solution (new or not)
        self.complete = False   # a search was exhausted: ``found`` is every solution
        self.stopped = False    # a time limit ended a search: it cannot go on
        self.turn = 0
        self.seconds = 0.0      # time spent in earlier run() calls
        self.entered = 0.0      # when the current run() call began
        self.diver: _core.Search | None = None  # the dive's search (``dive``), once started
        self.dive_runs = luby()
        self.dive_end = 0       # the dive's failed nodes at which its current run ends
        self.dive_found = 0     # solutions the dive found
        self.dive_restarts = 0

    def _search(self, order: int, nogoods: bool = False,
                root_implications: bool = False) -> _core.Search:
        return _core.Search(self.puzzle.rows, self.puzzle.cols, True, None, self.implications,
                            order, nogoods=nogoods, root_implications=root_implications)

    def nodes(self) -> int:
        return sum(c.stats()["nodes"] for c in self._all())

    def _all(self) -> list[_core.Search]:
        return self.searches if self.diver is None else [*self.searches, self.diver]

    def done(self) -> bool:
        return self.complete or self.stopped or len(self.found) >= self.max_solutions

    def run(self, limits: SearchLimits = SearchLimits(), until: float | None = None) -> bool:
        """Search on; True when the answer is known (done()), False at a limit.

        ``limits`` are final: ``max_nodes`` caps the nodes of all its searches together, and
        ``timeout`` the seconds since the team was made (a search a time limit stops cannot
        go on). ``until`` (a ``time.perf_counter()`` time) only pauses: it is checked between
        turns, which shrink from TEAM_SLICE nodes to what the time left allows at the speed
        seen so far (before any speed is seen, the first turn is one node: a first turn of
        TEAM_SLICE nodes ran far past ``until`` on puzzles whose nodes take seconds, Gettys's
        to the timeout; docs/decisions/0012), and a later call goes on where this one stopped."""
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
            if until is not None:  # no speed yet: one node, which gives one
                # (the team's own nodes: the dive's are many and cheap)
                own = sum(c.stats()["nodes"] for c in self.searches)
                per_node = (self.seconds + now - self.entered) / own if own else None
                size = 1 if per_node is None else max(
                    1, min(size, int((until - now) / max(per_node, 1e-9))))
            budget = core.stats()["nodes"] + size
            if limits.max_nodes is not None:
                budget = min(budget, core.stats()["nodes"] + limits.max_nodes - total)
            restarting = core is self.searches[0] and not self.found
            if restarting:
                budget = min(budget, self.run_end)
            left = seconds_left(limits.deadline(self.started))
            timeout = -1.0 if left is None else left  # (-1: none, as the core takes it)
            while len(self.found) < self.max_solutions:
                code = int(core.next(budget, timeout))
                if code == _core.SOLUTION:
                    self.reached = self.nodes()
                    self.add(checked_grid(BLACK_AND_WHITE, self.puzzle, core.grid()),
                             forced=core.stats()["max_depth"] == 0)
                    self.turns = [core]  # the rest is this search's to finish (see above)
                    continue
                if code == _core.EXHAUSTED:
                    self.complete = True
                elif core.stats()["timed_out"]:
                    self.stopped = True
                elif restarting and not self.found and core.stats()["nodes"] >= self.run_end:
                    self._restart(core)
                break
            self._moves(None if limits.timeout is None else self.started + limits.timeout)
            self._widen()
            self.turn += 1
        return True

    def solve(self, limits: SearchLimits = SearchLimits()) -> bool:
        """The native engine's whole search: ``run`` to the end, or on the puzzles the dive is
        for (``dives``) and without a node limit, the team and the dive in turns. The team's
        first turn (TURNS_FIRST seconds) ends most puzzles, then the dive's first
        (``first_dive``), then turns of TURNS_SHARE seconds each, each pair twice the last.
        Each search goes on where its last turn stopped; the team's solutions and the
        dive's are one pool, and when either search is exhausted the pool is every
        solution. After the first turns, equal turns bound the loss to a factor of about 2
        against whichever search is faster on the puzzle (the dive: Gettys, random puzzles;
        the team: Thing); the dive's first turn costs one descent where it fails (at most
        DIVE_FIRST_SECONDS). Under a node limit the team runs alone, as before: the turns go
        by the clock, and a node limit is there to make a run repeatable. True when the
        answer is known (not at a limit)."""
        if limits.max_nodes is not None or not dives(self.puzzle):
            self.run(limits)
        else:
            self._turns(limits)
        return self.done() and not self.stopped

    def _turns(self, limits: SearchLimits) -> None:
        deadline = limits.deadline(self.started)
        if (self.run(limits, until=least(time.perf_counter() + TURNS_FIRST, deadline))
                or self.first_dive(limits, deadline)):
            return
        share = TURNS_SHARE
        while not passed(deadline):
            if (self.run(limits, until=least(time.perf_counter() + share, deadline))
                    or self.dive(limits, until=least(time.perf_counter() + share, deadline))):
                return
            share *= 2

    def first_dive(self, limits: SearchLimits, deadline: float | None,
                   seconds: float | None = None, fails: int | None = None) -> bool:
        """The dive's first turn after the team's (at most ``seconds`` and ``fails`` failed
        nodes; None: DIVE_FIRST_SECONDS and DIVE_FIRST_FAILS) on the puzzles it is for
        (``dives``); True if it ended the search (the answer known, not the time limit
        reached)."""
        if not dives(self.puzzle) or passed(deadline):
            return False
        seconds = DIVE_FIRST_SECONDS if seconds is None else seconds
        until = least(time.perf_counter() + seconds, deadline)
        return (self.dive(limits, until, DIVE_FIRST_FAILS if fails is None else fails)
                and not self.stopped)

    def dive(self, limits: SearchLimits = SearchLimits(), until: float | None = None,
             max_fails: int | None = None) -> bool:
        """A turn of the dive, a search beside the team that branches by belief propagation
        over the lines (``_core.ORDER_BP``: the cell whose estimated probability of being
        filled is surest, its likelier value first; propagation without probing, so nodes
        are cheap). On random-like puzzles, where the root leaves nearly every cell open and
        the team's rules find no first solution for a long time, it often walks straight to
        one (random 50x50: a few hundred nodes, no failure; docs/decisions/0028).

        It starts from the cells the team's first search proved at its root (probing, which
        it does itself only where at most DIVE_PROBE_SHARE of the cells are open: on Gettys
        that root is the difference between a first solution in 0.3 s and a failed
        descent), and goes on where its last turn stopped, until
        ``until``, ``max_fails`` more failed
        nodes, or ``limits`` (as in ``run``, counting the team's nodes too). Until it finds a
        solution it restarts on a Luby schedule of DIVE_RESTART_FAILS failed nodes, with a
        randomised order and the nogoods of its earlier runs, so its runs together stay one
        complete search: its solutions are pooled, local moves look next to them at once,
        and when it is exhausted the pool is every solution. True when the answer is known
        (``done()``)."""
        if self.diver is None:
            self.diver = _core.Search(self.puzzle.rows, self.puzzle.cols, False, None, False,
                                      _core.ORDER_BP, nogoods=True,
                                      probe_share=DIVE_PROBE_SHARE)
            first = self.searches[0]
            if first.stats()["root_complete"]:  # it starts from what the team's root proved
                self.diver.fix(first.root())
            self.dive_end = DIVE_RESTART_FAILS * next(self.dive_runs)
        core = self.diver
        fails0 = core.stats()["fails"]
        deadline = limits.deadline(self.started)
        while not self.done():
            stats = core.stats()
            total = self.nodes()
            if ((until is not None and time.perf_counter() >= until)
                    or (max_fails is not None and stats["fails"] - fails0 >= max_fails)
                    or (limits.max_nodes is not None and total >= limits.max_nodes)):
                return False
            budget = stats["nodes"] + DIVE_SLICE
            if limits.max_nodes is not None:
                budget = min(budget, stats["nodes"] + limits.max_nodes - total)
            left = seconds_left(deadline)
            code = int(core.next(budget, -1.0 if left is None else left))
            if code == _core.SOLUTION:
                grid = checked_grid(BLACK_AND_WHITE, self.puzzle, core.grid())
                self.reached = self.nodes()
                self.dive_found += 1
                if grid not in self.found:
                    self.found[grid] = None
                    for other in moves_for_count(self.puzzle, grid, self.found,
                                                 self.max_solutions, deadline):
                        self.found[other] = None
                        self.nearby += 1
            elif code == _core.EXHAUSTED:
                self.complete = True
            elif core.stats()["timed_out"]:
                self.stopped = True
            elif not self.dive_found and core.stats()["fails"] >= self.dive_end:
                self.dive_restarts += 1
                core.restart(self.dive_restarts)
                self.dive_end = (core.stats()["fails"]
                                 + DIVE_RESTART_FAILS * next(self.dive_runs))
        return True

    def add(self, grid: Grid, forced: bool = False) -> None:
        """Pool a solution; unless it is ``forced`` (found without a branch, by sound
        propagation alone, so the only one), keep it for local moves (``_moves``)."""
        if grid in self.found:
            return
        self.found[grid] = None
        if not forced and len(self.found) <= MOVES_MAX_SOLUTIONS:
            self.pending.append((grid, self.nodes()))

    def _moves(self, deadline: float | None = None) -> None:
        """While fewer than ``max_solutions`` are known, look for more next to the solutions
        found at least TEAM_SLICE nodes ago by local moves (``nearby``: each checked against
        the clues; they stop at the ``deadline``). The search that found one usually finds
        the next within a few nodes (taai2011), where the moves would cost more than they
        save: they come in when it has not."""
        total = self.nodes()
        while (self.pending and not self.done()
               and total >= self.pending[0][1] + TEAM_SLICE):
            grid, _ = self.pending.pop(0)
            for other in moves_for_count(self.puzzle, grid, self.found, self.max_solutions,
                                         deadline):
                self.found[other] = None
                self.nearby += 1

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
        for c in self._all():
            for k, v in c.stats().items():
                stats[k] = (max(stats.get(k, 0), v) if k in ("max_depth", "root_complete",
                                                              "timed_out")
                            else stats.get(k, 0) + v)
        stats["searches"] = len(self.searches)
        stats["restarts"] = self.restarts
        stats["nearby"] = self.nearby
        if self.diver is not None:
            stats["dive_nodes"] = self.diver.stats()["nodes"]
            stats["dive_found"] = self.dive_found
            stats["dive_restarts"] = self.dive_restarts
        return stats

    def partial(self) -> Grid:
        """The cells proven at the root of the first search: by propagation and probing, and
        once it has restarted also by the nogoods of its earlier runs (each names a part of
        the search proven to hold no solution, so what they fix is as certain)."""
        return BLACK_AND_WHITE.read(self.puzzle, self.searches[0].root())

    def root_implications(self) -> array[int]:
        """What the first search's probes at its root fixed: records of (literal, count,
        literals...), a literal being 2 * cell + 1 for filled, 2 * cell for empty; each says
        "if this, then those" for every solution (a SAT hand-over adds them as clauses)."""
        records = array("i")
        records.frombytes(self.searches[0].root_implications())
        return records

    def result(self) -> Result:
        solutions = tuple(self.found)[:self.max_solutions]
        stats = self.stats()
        return Result.of_count(solutions, self.max_solutions, self.complete, stats["nodes"],
                               time.perf_counter() - self.started, self.partial(), stats)


def implication_pairs(records: bytes, open_cells: bytes | None) -> list[list[int]]:
    """``Team.root_implications`` records (as native-int bytes) read as binary clauses over the
    cell variables (cell + 1, negative for empty): [not literal, implied] once each, in the
    order found, without those on a cell whose byte in ``open_cells`` is 0 (None: every
    cell open); ValueError if the records are malformed. Compiled: a large puzzle's records
    run to hundreds of thousands of ints."""
    return _core.implication_pairs(records, open_cells)


def team_for(puzzle: AnyPuzzle, max_solutions: int, implications: bool = True) -> Team | None:
    """A team for the puzzle if its engine has one (the black-and-white engine), else None."""
    if not engine_for(puzzle).team:
        return None
    return Team(cast(Puzzle, puzzle), max_solutions, implications)
