"""The colour dive: a colour search that branches by belief propagation, in turns with the
plain colour search (docs/decisions/0036).

The dive (``_colour.ORDER_BP``) branches on the open cell whose likeliest colour, by belief
propagation over the lines, is likeliest, that colour first; it propagates without probing
but where at most the policy's ``colour_dive_probe_share`` of the cells are open, and until
it finds a solution it restarts (randomised) after Luby multiples of ``dive_restart_fails``
failed nodes. Each of its runs is a whole search from its root, so a run that is exhausted
has seen every solution. It proves nothing that the plain search (probing at every node)
would not: on random-like puzzles it walks to first solutions the plain search does not
find in minutes, and the plain search, in turns with it, proves what it cannot. Turns are
counted in work (line solves; the dive's belief-propagation line passes count too), so a
run repeats exactly; the clock only ends it.

The plain search may restart too (``Policy.colour_restart_fails``, 0038): after Luby
multiples of that many failed nodes it goes back to its root keeping the run's refutations as
nogoods (so the runs together stay one complete search), its runs taking turns between the
probes' ranking and, with ``Policy.colour_wdeg``, the probes times the lines' conflict
weights (``_colour.ORDER_WDEG``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping

import gridsolve.nonogram.engine._colour as _colour
from gridsolve.nonogram.engine.cores import COLOUR, checked_grid, known_masks
from gridsolve.nonogram.engine.results import Progress, Result, SearchLimits, seconds_left
from gridsolve.nonogram.engine.schedule import Pool
from gridsolve.nonogram.engine.team import luby
from gridsolve.nonogram.model import ColourPuzzle, Grid
from gridsolve.nonogram.policy import DEFAULT_POLICY, Policy

__all__ = ["colour_dives", "ColourTurns", "ColourWorker"]


def colour_dives(puzzle: ColourPuzzle, policy: Policy = DEFAULT_POLICY) -> bool:
    """Is the colour dive for this puzzle: more than the policy's ``colour_dive_min_cells``
    cells and at most ``dive_max_cells``."""
    return policy.colour_dive_min_cells < puzzle.width * puzzle.height <= policy.dive_max_cells


class ColourTurns:
    """The plain colour search and the dive in turns over one puzzle, their solutions pooled
    (each searches the whole space: when either is exhausted the pool is every solution).

    ``solve`` is the plan: the dive's first turn (``dive_first_fails`` failed nodes or
    ``dive_first_work``), the plain search's (``turns_first``), then equal turns of
    ``turns_share`` work each, the dive's first, each pair twice the last, as ``team.native``
    does for black and white. ``known`` cells narrow both searches before they start."""

    def __init__(self, puzzle: ColourPuzzle, max_solutions: int, *, known: Grid | None = None,
                 keep_root: bool = False, policy: Policy = DEFAULT_POLICY) -> None:
        self.puzzle = puzzle
        self.max_solutions = max_solutions
        self.policy = policy
        self.masks = None if known is None else known_masks(puzzle, known)
        self.started = time.perf_counter()
        colours = len(puzzle.palette)
        #: the plain search's branching rules, a run each in turn (0038)
        self.orders = ((_colour.ORDER_PROBES, _colour.ORDER_WDEG) if policy.colour_wdeg
                       else (_colour.ORDER_PROBES,))
        self.plain = _colour.Search(puzzle.rows, puzzle.cols, colours, True,
                                    keep_root and known is None, order=self.orders[0],
                                    nogoods=policy.colour_restart_fails > 0)
        self.runs = luby()
        self.run_end = policy.colour_restart_fails * next(self.runs)  # failed nodes
        self.restarts = 0        # the plain search's
        if self.masks is not None:
            self.plain.fix(self.masks)
        self.diver: _colour.Search | None = None  # made at the dive's first turn
        self.propagated: _colour.Search | None = None  # the root, by propagation (``_declined``)
        self.rooted = False      # the dive starts from the plain search's settled root
        self.retired: dict[str, int] = {}  # the counters of a dive replaced (``_dive_core``)
        self.dive_runs = luby()
        self.dive_end = 0        # the dive's failed nodes at which its current run ends
        self.dive_found = 0      # solutions the dive stood on
        self.dive_restarts = 0
        self.found: dict[Grid, None] = {}
        self.complete = False    # a search was exhausted: ``found`` is every solution
        self.stopped = False     # a time limit or the work budget ended a search for good
        self.end: int | None = None  # total work at which both stop for good (``solve``)
        self.phase = 0  # ``turn``'s place in the plan: 0 dive first, 1 plain, 2 equal, 3 plain alone
        self.share = policy.turns_share  # ``turn``'s equal turns' share so far
        self.progress: Progress | None = None

    def report_to(self, progress: Progress | None) -> None:
        """Tell ``progress`` the nodes and solutions as the searches go, and how to read the
        cells proven so far (as ``Team.report_to``)."""
        self.progress = progress
        if progress is not None:
            progress.partial = self.partial

    def done(self) -> bool:
        return self.complete or self.stopped or len(self.found) >= self.max_solutions

    def _searches(self) -> list[_colour.Search]:
        return [c for c in (self.plain, self.diver, self.propagated) if c is not None]

    def work(self) -> int:
        """Both searches' work so far (line solves; the dive's BP line passes included)."""
        return (sum(c.stats()["line_solves"] for c in self._searches())
                + self.retired.get("line_solves", 0))

    def nodes(self) -> int:
        return sum(c.stats()["nodes"] for c in self._searches()) + self.retired.get("nodes", 0)

    def _call(self, core: _colour.Search, limits: SearchLimits, nodes: int,
              pause: int | None, fails: int | None = None) -> int | None:
        """One ``next`` of ``core`` under the limits, at most ``nodes`` more nodes and
        pausing at ``pause`` work of its own or ``fails`` failed nodes; None when a limit
        leaves it nothing to do."""
        stats = core.stats()
        budget = stats["nodes"] + nodes
        if limits.max_nodes is not None:
            left = limits.max_nodes - self.nodes()
            if left <= 0:
                return None
            budget = min(budget, stats["nodes"] + left)
        max_work = -1
        if self.end is not None:
            left_work = self.end - self.work()
            if left_work <= 0:
                self.stopped = True
                return None
            max_work = stats["line_solves"] + left_work
        left_s = seconds_left(limits.deadline(self.started))
        code = int(core.next(budget, -1.0 if left_s is None else left_s, max_work,
                             -1 if pause is None else max(1, pause),
                             -1 if fails is None else max(1, fails)))
        if code == _colour.SOLUTION:
            self.found[checked_grid(COLOUR, self.puzzle, core.grid())] = None
        elif code == _colour.EXHAUSTED:
            self.complete = True
        elif core.stats()["timed_out"]:
            self.stopped = True
        if self.progress is not None:
            self.progress.update(self.nodes(), len(self.found),
                                 "dive" if core is self.diver else "native")
        return code

    def plain_turn(self, limits: SearchLimits, work: int | None) -> None:
        """The plain search, for ``work`` more work of its own (None: to the end), restarting
        at the end of each run when it restarts (``colour_restart_fails``)."""
        core = self.plain
        pause = None if work is None else core.stats()["line_solves"] + work
        nodes = 1 << 62
        # restarts until the search stands on a solution (after one, a run's nogoods would
        # stop at it and runs could repeat: colour_search.c's cg_restart)
        restarts = self.policy.colour_restart_fails > 0
        while not self.done():
            if pause is not None and core.stats()["line_solves"] >= pause:
                return
            restarting = restarts and not core.stats()["solutions"]
            code = self._call(core, limits, nodes, pause, self.run_end if restarting else None)
            if code == _colour.SOLUTION:
                continue
            if (code == _colour.LIMIT and restarting and not self.done()
                    and core.stats()["fails"] >= self.run_end):
                self._restart()
                continue
            return

    def _restart(self) -> None:
        """End the plain search's run: back to its root with the run's nogoods, the next
        branching rule's run (``orders``) ending ``colour_restart_fails`` times the next
        Luby number more failed nodes on."""
        self.restarts += 1
        self.plain.restart(0, order=self.orders[self.restarts % len(self.orders)])
        self.run_end = (self.plain.stats()["fails"]
                        + self.policy.colour_restart_fails * next(self.runs))

    def _dive_core(self) -> _colour.Search:
        """The dive's search: at first from its own root (propagation, cheap); once the
        plain search has settled its root (probing) and the dive has found nothing, a new one
        from that root (on a random 33x33 of 4 colours: 22 failed nodes in its first 152 from
        its own root, none from the probed one). Each is a whole search from a sound root."""
        root_done = bool(self.plain.stats()["root_complete"])
        if self.diver is not None and (self.rooted or self.dive_found or not root_done):
            return self.diver
        if self.diver is not None:  # replaced: its counters stay in the totals
            for k, v in self.diver.stats().items():
                self.retired[k] = self.retired.get(k, 0) + v
        p = self.puzzle
        self.diver = _colour.Search(p.rows, p.cols, len(p.palette), False,
                                    order=_colour.ORDER_BP,
                                    probe_share=self.policy.colour_dive_probe_share)
        if root_done:
            self.diver.fix(self.plain.root_masks())
            self.rooted = True
        elif self.propagated is not None:
            self.diver.fix(self.propagated.root_masks())
        elif self.masks is not None:
            self.diver.fix(self.masks)
        self.dive_end = (self.diver.stats()["fails"]
                         + self.policy.dive_restart_fails * next(self.dive_runs))
        return self.diver

    def dive_turn(self, limits: SearchLimits, work: int | None,
                  max_fails: int | None = None) -> None:
        """The dive, for ``work`` more work of its own (None: to the end) or ``max_fails``
        more failed nodes; until it finds a solution it restarts after Luby multiples of
        ``dive_restart_fails`` failed nodes."""
        core = self._dive_core()
        start = core.stats()
        pause = None if work is None else start["line_solves"] + work
        while not self.done():
            stats = core.stats()
            if ((pause is not None and stats["line_solves"] >= pause)
                    or (max_fails is not None and stats["fails"] - start["fails"] >= max_fails)):
                return
            code = self._call(core, limits, self.policy.dive_slice, pause)
            if code is None or core.stats()["line_solves"] == stats["line_solves"]:
                return  # (a limit; or no work done, which a sound core never does)
            if code == _colour.SOLUTION:
                self.dive_found += 1
            elif (code == _colour.LIMIT and not self.done() and not self.dive_found
                  and core.stats()["fails"] >= self.dive_end):
                self.dive_restarts += 1
                core.restart(self.dive_restarts)
                self.dive_end = (core.stats()["fails"]
                                 + self.policy.dive_restart_fails * next(self.dive_runs))

    def solve(self, limits: SearchLimits = SearchLimits(), work: int | None = None) -> bool:
        """The plan (see the class docstring), ending for good once both searches have done
        ``work`` more work together (a turn that repeats exactly); True when the answer is
        known (not at a limit)."""
        if work is not None:
            self.end = self.work() + work
        self.turn(limits, None)
        if not self._over(limits):  # (every turn does some work: a core's bug, not a loop)
            self.stopped = True
        return self.done() and not self.stopped

    def turn(self, limits: SearchLimits, work: int | None) -> None:
        """The plan for ``work`` more work (None: to the end), pausing where a turn ends, so
        that the next call goes on where this one stopped (``ColourWorker``: the plan in
        turns with SAT); ``solve`` runs it to the end, its budget ending it for good."""
        policy = self.policy
        end = None if work is None else self.work() + work

        def left(most: int) -> int:
            return most if end is None else max(0, min(most, end - self.work()))
        while not self._over(limits) and left(1):
            before, phase = self.work(), self.phase
            if phase == 0 and self._declined(limits):
                self.phase = 3
            elif phase == 0:
                self.dive_turn(limits, left(policy.dive_first_work), policy.dive_first_fails)
                self.phase = 1
            elif phase == 3:
                self.plain_turn(limits, None if end is None else left(end))
            elif phase == 1:
                self.plain_turn(limits, left(policy.turns_first))
                self.phase = 2
            else:
                self.dive_turn(limits, left(self.share))
                if not self._over(limits) and left(1):
                    self.plain_turn(limits, left(self.share))
                self.share *= 2
            if phase >= 2 and self.work() == before:
                return  # (nothing moved: a limit of the caller's, or a core's bug)

    def _declined(self, limits: SearchLimits) -> bool:
        """Propagate at the root (no probing), where both searches then start, and decline
        the dive where that leaves at most the policy's ``colour_dive_min_open`` share of the
        cells open: the plain search alone (0036)."""
        p = self.puzzle
        core = self.propagated = _colour.Search(p.rows, p.cols, len(p.palette), False)
        if self.masks is not None:
            core.fix(self.masks)
        self._call(core, limits, 0, None)
        if self.done() or not core.stats()["root_complete"]:
            return False
        self.plain.fix(core.root_masks(), implied=True, settled=True)
        grid = core.grid()
        return grid.count(_colour.NOT_KNOWN) <= self.policy.colour_dive_min_open * len(grid)

    def _over(self, limits: SearchLimits) -> bool:
        return (self.done() or (limits.max_nodes is not None
                                and self.nodes() >= limits.max_nodes))

    def stats(self) -> dict[str, int]:
        stats = dict(self.plain.stats())
        stats["restarts"] = self.restarts
        if self.propagated is not None:
            _merge(stats, self.propagated.stats())
        if self.diver is not None:
            dive = _merge(dict(self.diver.stats()), self.retired)
            _merge(stats, dive)
            stats["dive_nodes"] = dive["nodes"]
            stats["dive_found"] = self.dive_found
            stats["dive_restarts"] = self.dive_restarts
        return stats

    def partial(self) -> Grid:
        """The cells proven at a root: the plain search's once it settled it (probing),
        else the dive's, else propagation's, else the known cells."""
        cores = (c for c in self._searches() if c.stats()["root_complete"])
        return COLOUR.read(self.puzzle, next(cores, self.plain).root())

    def result(self) -> Result:
        solutions = tuple(self.found)[:self.max_solutions]
        stats = self.stats()
        return Result.of_count(solutions, self.max_solutions, self.complete, stats["nodes"],
                               time.perf_counter() - self.started, self.partial(), stats)


def _merge(stats: dict[str, int], more: Mapping[str, int]) -> dict[str, int]:
    """``stats`` with another search's counters added (the greatest depth; the root
    ``stats``' own)."""
    for k, v in more.items():
        if k in ("max_depth", "timed_out"):
            stats[k] = max(stats.get(k, 0), v)
        elif k != "root_complete":
            stats[k] = stats.get(k, 0) + v
    return stats


class ColourWorker:
    """``ColourTurns`` as one of the schedule's workers (``engine.schedule``): a turn is its
    plan for a share of work (``ColourTurns.turn``), its solutions added to the pool."""

    def __init__(self, turns: ColourTurns, timeout: float | None) -> None:
        self.turns, self.timeout = turns, timeout

    @property
    def exhausted(self) -> bool:
        return self.turns.complete

    @property
    def stopped(self) -> bool:
        return self.turns.stopped

    def work(self) -> int:
        return self.turns.work()

    def nodes(self) -> int:
        return self.turns.nodes()

    def turn(self, pool: Pool, work: int | None, nodes: int | None) -> None:
        self.turns.found.update(dict.fromkeys(pool.found))
        self.turns.turn(SearchLimits(max_nodes=None if nodes is None else self.nodes() + nodes,
                                     timeout=self.timeout), work)
        pool.found.update(self.turns.found)
