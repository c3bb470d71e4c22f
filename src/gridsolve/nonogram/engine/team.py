"""A team of black-and-white searches that differ in their branching rule, run in turns, the
first restarting on a Luby schedule: why and how in docs/engine.md, section 4 (0002, 0003)."""

from __future__ import annotations

import time
from array import array
from collections.abc import Iterator
from typing import cast

import gridsolve.nonogram.engine._core as _core
from gridsolve.nonogram.engine.schedule import Pool, Scheduler
from gridsolve.nonogram.engine.cores import BLACK_AND_WHITE, abilities, checked_grid
from gridsolve.nonogram.engine.nearby import MOVES_MAX_SOLUTIONS, moves_for_count
from gridsolve.nonogram.engine.results import (Progress, Result, SearchLimits, passed,
                                               seconds_left)
from gridsolve.nonogram.model import AnyPuzzle, Grid, Puzzle
from gridsolve.nonogram.policy import DEFAULT_POLICY, Policy

__all__ = ["Team", "team_for", "luby", "dives", "work_of", "TEAM_ORDERS", "TeamWorker", "DiveWorker",
           "native"]

#: The team's branching rules (``_core.Search``'s ``order``), in the order they join.
TEAM_ORDERS = (_core.ORDER_PROMISE, _core.ORDER_LIKELY)


def dives(puzzle: AnyPuzzle, policy: Policy = DEFAULT_POLICY) -> bool:
    """Is the dive (``Team.dive``) for this puzzle: its engine can dive, and it has more than
    the policy's ``dive_min_cells`` cells and at most ``dive_max_cells``."""
    return (abilities(puzzle).dive
            and policy.dive_min_cells < puzzle.width * puzzle.height <= policy.dive_max_cells)


def work_of(stats: dict[str, int], cells: int = 0, bp_cells: int = 1) -> int:
    """A search's work so far (see ``policy``): its line solves, and its belief-propagation
    rounds over ``cells`` cells at one unit per ``bp_cells`` cells."""
    return stats["line_solves"] + stats.get("bp_rounds", 0) * cells // max(1, bp_cells)


def luby() -> Iterator[int]:
    """The Luby sequence 1 1 2 1 1 2 4 1 1 2 ... (Luby, Sinclair & Zuckerman 1993)."""
    u, v = 1, 1
    while True:  # Knuth's "reluctant doubling": v doubles until it is u's lowest set bit
        yield v
        u, v = (u + 1, 1) if u & -u == v else (u, 2 * v)


class Team:
    """Searches of one puzzle that differ only in their branching rule (TEAM_ORDERS), run in
    turns of ``team_slice`` nodes: *promise* alone, restarting on a Luby schedule with its
    nogoods until a solution is found, *likely* joining after ``team_join_nodes``; the search
    that finds a solution goes on alone, local moves look next to it, and when one search is
    exhausted the pooled solutions are every solution (docs/engine.md, section 4). ``run`` and
    ``dive`` pause after an amount of work, never of time, so runs repeat exactly."""

    def __init__(self, puzzle: Puzzle, max_solutions: int, implications: bool = True,
                 policy: Policy = DEFAULT_POLICY) -> None:
        self.puzzle = puzzle
        self.max_solutions = max_solutions
        self.implications = implications
        self.policy = policy
        self.started = time.perf_counter()
        # the first search restarts on a Luby schedule (keeping its nogoods) until a
        # solution is found; run_end is the node count at which its current run ends
        self.searches = [self._search(TEAM_ORDERS[0], nogoods=True, root_implications=True)]
        self.runs = luby()
        self.run_end = policy.team_restart_base * next(self.runs)
        self.restarts = 0
        self.nearby = 0  # solutions found by local moves (``_moves``)
        self.pending: list[tuple[Grid, int]] = []  # solutions, and the nodes when found
        self.turns = list(self.searches)  # the searches still taking turns
        self.found: dict[Grid, None] = {}
        self.reached = 0        # the nodes when a search last stood on a solution (new or not)
        self.complete = False   # a search was exhausted: ``found`` is every solution
        self.stopped = False    # a time limit ended a search: it cannot go on
        self.turn = 0
        self.diver: _core.Search | None = None  # the dive's search (``dive``), once started
        self.dive_runs = luby()
        self.dive_end = 0       # the dive's failed nodes at which its current run ends
        self.dive_found = 0     # solutions the dive found
        self.dive_restarts = 0
        self.progress: Progress | None = None  # told the nodes and solutions as it goes

    def report_to(self, progress: Progress | None) -> None:
        """Tell ``progress`` the nodes and solutions as the searches go, and how to read the
        cells proven so far."""
        self.progress = progress
        if progress is not None:
            progress.partial = self.partial

    def _tell(self, phase: str) -> None:
        if self.progress is not None:
            self.progress.update(self.nodes(), len(self.found), phase)

    def _search(self, order: int, nogoods: bool = False,
                root_implications: bool = False) -> _core.Search:
        return _core.Search(self.puzzle.rows, self.puzzle.cols, True, None, self.implications,
                            order, nogoods=nogoods, root_implications=root_implications)

    def nodes(self) -> int:
        return sum(c.stats()["nodes"] for c in self._all())

    def work(self) -> int:
        """The team's own work so far (its searches' line solves; the dive's is
        ``dive_work``)."""
        return sum(c.stats()["line_solves"] for c in self.searches)

    def dive_work(self) -> int:
        """The dive's work so far: its line solves and belief-propagation passes."""
        if self.diver is None:
            return 0
        return work_of(self.diver.stats(), self.puzzle.width * self.puzzle.height,
                       self.policy.dive_bp_cells)

    def _all(self) -> list[_core.Search]:
        return self.searches if self.diver is None else [*self.searches, self.diver]

    def done(self) -> bool:
        return self.complete or self.stopped or len(self.found) >= self.max_solutions

    def run(self, limits: SearchLimits = SearchLimits(), work: int | None = None,
            stop: int | None = None) -> bool:
        """Search on; True when the answer is known (``done()``), False at a limit or a pause.

        ``limits`` are final (``max_nodes`` for all searches together; ``timeout`` from the team's
        start). ``work`` pauses after that much more work, in turns that shrink to the work left at
        the work per node seen so far (one node before any is seen: 0012). ``stop`` ends the search
        for good once that much more work is done, inside a node if need be."""
        end = None if work is None else self.work() + work
        halt = None if stop is None else self.work() + stop
        while not self.done():
            core = self.turns[self.turn % len(self.turns)]
            # every search's counters, read once for this turn's plan (a read builds a dict
            # of 13: 3% of a batch of small puzzles was reading them again; issue 56)
            own_stats = [c.stats() for c in self.searches]
            mine = own_stats[self.searches.index(core)]
            own = sum(st["nodes"] for st in own_stats)
            total = own + (0 if self.diver is None else self.diver.stats()["nodes"])
            if limits.max_nodes is not None and total >= limits.max_nodes:
                return False
            work_now = sum(st["line_solves"] for st in own_stats)  # (``work``)
            size = self.policy.team_slice
            if end is not None:
                if work_now >= end:
                    return False
                # (no work per node seen yet: one node, which shows it)
                size = max(1, min(size, (end - work_now) * own // max(work_now, 1))) if own else 1
            budget = mine["nodes"] + (size if limits.max_nodes is None
                                      else min(size, limits.max_nodes - total))
            restarting = core is self.searches[0] and not self.found
            if restarting:
                budget = min(budget, self.run_end)
            left = seconds_left(limits.deadline(self.started))
            timeout = -1.0 if left is None else left  # (-1: none, as the core takes it)
            max_work = (-1 if halt is None  # (at least 1: the core reads 0 as no budget)
                        else max(1, mine["line_solves"] + max(0, halt - work_now)))
            while len(self.found) < self.max_solutions:
                code = int(core.next(budget, timeout, max_work))
                if code == _core.SOLUTION:
                    self.reached = self.nodes()
                    self.add(checked_grid(BLACK_AND_WHITE, self.puzzle, core.grid()),
                             forced=core.stats()["max_depth"] == 0, nodes=self.reached)
                    self.turns = [core]  # the rest is this search's to finish (see above)
                    continue
                if code == _core.EXHAUSTED:
                    self.complete = True
                elif core.stats()["timed_out"]:
                    self.stopped = True
                elif restarting and not self.found and core.stats()["nodes"] >= self.run_end:
                    # the first search's run ends: back to its root, with the run's nogoods
                    core.restart(0)
                    self.restarts += 1
                    self.run_end = (core.stats()["nodes"]
                                    + self.policy.team_restart_base * next(self.runs))
                break
            self._moves(None if limits.timeout is None else self.started + limits.timeout)
            self._widen()
            self.turn += 1
            self._tell("native")
        return True

    def solve(self, limits: SearchLimits = SearchLimits()) -> bool:
        """The native engine's whole search: ``run``, or on the dive's puzzles without a node
        limit the team and the dive in turns (``native``); True when the answer is known."""
        if limits.max_nodes is not None or not dives(self.puzzle, self.policy):
            self.run(limits)
        else:
            native(self, limits)
        return self.done() and not self.stopped

    def first_dive(self, limits: SearchLimits, deadline: float | None = None) -> bool:
        """The dive's first turn (the policy's ``dive_first_work`` and ``dive_first_fails``)
        on the puzzles it is for; True if it ended the search."""
        if not dives(self.puzzle, self.policy) or passed(deadline):
            return False
        return (self.dive(limits, self.policy.dive_first_work, self.policy.dive_first_fails)
                and not self.stopped)

    def dive(self, limits: SearchLimits = SearchLimits(), work: int | None = None,
             max_fails: int | None = None) -> bool:
        """A turn of the dive (docs/engine.md, section 5; 0028): belief propagation picks the
        surest cell and its likelier value, from the team's root; it restarts on a Luby schedule of
        ``dive_restart_fails`` failed nodes, keeping its nogoods, until it finds a solution. It goes
        on for ``work`` more work, ``max_fails`` failed nodes or to ``limits``; True when the answer
        is known."""
        policy = self.policy
        if self.diver is None:
            self.diver = _core.Search(self.puzzle.rows, self.puzzle.cols, False, None, False,
                                      _core.ORDER_BP, nogoods=True,
                                      probe_share=policy.dive_probe_share)
            first = self.searches[0]
            if first.stats()["root_complete"]:  # it starts from what the team's root proved
                self.diver.fix(first.root())
            self.dive_end = policy.dive_restart_fails * next(self.dive_runs)
        core = self.diver
        fails0 = core.stats()["fails"]
        end = None if work is None else self.dive_work() + work
        deadline = limits.deadline(self.started)
        while not self.done():
            stats = core.stats()
            total = self.nodes()
            if ((end is not None and self.dive_work() >= end)
                    or (max_fails is not None and stats["fails"] - fails0 >= max_fails)
                    or (limits.max_nodes is not None and total >= limits.max_nodes)):
                return False
            budget = stats["nodes"] + (policy.dive_slice if limits.max_nodes is None
                                       else min(policy.dive_slice, limits.max_nodes - total))
            left = seconds_left(deadline)
            code = int(core.next(budget, -1.0 if left is None else left))
            self._tell("dive")
            if code == _core.SOLUTION:
                grid = checked_grid(BLACK_AND_WHITE, self.puzzle, core.grid())
                self.reached = self.nodes()
                self.dive_found += 1
                if grid not in self.found:
                    self.found[grid] = None
                    self._near(grid, deadline)
            elif code == _core.EXHAUSTED:
                self.complete = True
            elif core.stats()["timed_out"]:
                self.stopped = True
            elif not self.dive_found and core.stats()["fails"] >= self.dive_end:
                self.dive_restarts += 1
                core.restart(self.dive_restarts)
                self.dive_end = (core.stats()["fails"]
                                 + policy.dive_restart_fails * next(self.dive_runs))
        return True

    def add(self, grid: Grid, forced: bool = False, nodes: int | None = None) -> None:
        """Pool a solution; unless it is ``forced`` (found without a branch, by sound
        propagation alone, so the only one), keep it for local moves (``_moves``) with the
        team's ``nodes`` now (read again when not given)."""
        if grid in self.found:
            return
        self.found[grid] = None
        if not forced and len(self.found) <= MOVES_MAX_SOLUTIONS:
            self.pending.append((grid, self.nodes() if nodes is None else nodes))

    def _moves(self, deadline: float | None = None) -> None:
        """Local moves next to the solutions found at least ``team_slice`` nodes ago (the search
        that found one usually finds the next sooner), while fewer than asked are known."""
        total = self.nodes()
        while (self.pending and not self.done()
               and total >= self.pending[0][1] + self.policy.team_slice):
            self._near(self.pending.pop(0)[0], deadline)

    def _near(self, grid: Grid, deadline: float | None) -> None:
        """Pool the solutions local moves find next to ``grid`` (``moves_for_count``)."""
        for other in moves_for_count(self.puzzle, grid, self.found, self.max_solutions,
                                     deadline):
            self.found[other] = None
            self.nearby += 1

    def _widen(self) -> None:
        """Let the next searches join when the first has run long enough without a
        solution (see the class docstring)."""
        if self.done() or len(self.turns) < len(self.searches):  # a search goes on alone
            return
        if (len(self.searches) == 1
                and self.searches[0].stats()["nodes"] >= self.policy.team_join_nodes):
            self.searches += [self._search(o) for o in TEAM_ORDERS[1:]]
            self.turns = list(self.searches)

    def stats(self) -> dict[str, int]:
        stats: dict[str, int] = {}
        for c in self._all():
            for k, v in c.stats().items():
                stats[k] = (max(stats.get(k, 0), v) if k in ("max_depth", "root_complete",
                                                              "timed_out")
                            else stats.get(k, 0) + v)
        stats.update(searches=len(self.searches), restarts=self.restarts, nearby=self.nearby)
        if self.diver is not None:
            stats.update(dive_nodes=self.diver.stats()["nodes"], dive_found=self.dive_found,
                         dive_restarts=self.dive_restarts)
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


def team_for(puzzle: AnyPuzzle, max_solutions: int, implications: bool = True,
             policy: Policy = DEFAULT_POLICY) -> Team | None:
    """A team for the puzzle if its engine has one (the black-and-white engine), else None."""
    if not abilities(puzzle).team:
        return None
    return Team(cast(Puzzle, puzzle), max_solutions, implications, policy)


class TeamWorker:
    """The native team (``Team.run``): its own searches' work and nodes, the dive's apart.
    ``timeout`` is counted from the team's start (as ``Team.run`` takes it)."""

    def __init__(self, team: Team, timeout: float | None) -> None:
        self.team = team
        self.timeout = timeout

    @property
    def exhausted(self) -> bool:
        return self.team.complete

    @property
    def stopped(self) -> bool:
        return self.team.stopped

    def work(self) -> int:
        return self.team.work()

    def nodes(self) -> int:
        return sum(c.stats()["nodes"] for c in self.team.searches)

    def limits(self, nodes: int | None) -> SearchLimits:
        """The team's limits for a turn: a node cap over its searches and the dive's."""
        return SearchLimits(None if nodes is None else self.team.nodes() + nodes, self.timeout)

    def turn(self, pool: Pool, work: int | None, nodes: int | None) -> None:
        self.team.run(self.limits(nodes), None if work is None else max(0, work))
        pool.found.update(self.team.found)


class DiveWorker(TeamWorker):
    """The team's dive (``Team.dive``): its work is its line solves and belief-propagation
    passes (``Team.dive_work``)."""

    def work(self) -> int:
        return self.team.dive_work()

    def nodes(self) -> int:
        diver = self.team.diver
        return 0 if diver is None else diver.stats()["nodes"]

    def turn(self, pool: Pool, work: int | None, nodes: int | None) -> None:
        self.team.dive(self.limits(nodes), work)
        pool.found.update(self.team.found)


def native(team: Team, limits: SearchLimits) -> None:
    """The native plan on the dive's puzzles: the team's first turn (``turns_first``), the
    dive's, then equal turns of ``turns_share`` work, each pair twice the last (0031)."""
    policy = team.policy
    deadline = limits.deadline(team.started)
    if team.run(limits, policy.turns_first) or team.first_dive(limits, deadline):
        return
    pool = Pool(team.max_solutions, team.found)
    plan = Scheduler(pool, [TeamWorker(team, limits.timeout), DiveWorker(team, limits.timeout)],
                     limits.max_nodes, deadline)
    share = policy.turns_share
    while not team.stopped:
        if any(plan.turn(worker, share) for worker in plan.workers):
            return
        share *= 2
