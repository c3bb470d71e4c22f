"""One puzzle on several cores (``--jobs``): auto's first turns here, then the schedule's
workers side by side, one process each; the plan and its decision records are in
docs/engine.md, "One puzzle on several cores". Statuses and counts are exact; only which
process answers first may differ. A node limit, one job or no fork() (Windows): one process.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, cast

from gridsolve import cores
from gridsolve.errors import GridsolveError, LimitReached, SolverUnavailable
from gridsolve.nonogram import engine
from gridsolve.nonogram.backends._common import KISSAT, sat_installed
from gridsolve.nonogram.backends._processes import (DEADLINE_GRACE, REPORT_SECONDS, Worker, side,
                                                    can_fork, grids_worker, guarded, pool,
                                                    reporter)
from gridsolve.nonogram.engine import (Progress, Result, SearchLimits, Team, abilities, passed,
                                       repooled, seconds_left, settled)
from gridsolve.nonogram.engine.schedule import Pool
from gridsolve.nonogram.engine.team import DiveWorker, TeamWorker, dives, team_for
from gridsolve.nonogram.backends.workers import KissatWorker, SyrupWorker
from gridsolve.nonogram.model import AnyPuzzle, ColourPuzzle, Grid, Puzzle
from gridsolve.nonogram.policy import DEFAULT_POLICY, Policy

if TYPE_CHECKING:  # multiprocessing is imported when processes start (a small solve needs none)
    from multiprocessing.connection import Connection

    from gridsolve.nonogram.engine.colour_dive import ColourWorker

__all__ = ["alone_for", "can_fork", "analyse"]


def _team_worker(team: Team, limits: SearchLimits, dive: bool = False) -> Worker:
    """The team (or its dive) going on from its state at the fork; the nodes before the fork
    count once, in the team's process."""
    worker = (DiveWorker if dive else TeamWorker)(team, limits.timeout)
    return side(worker, Pool(team.max_solutions, team.found), team.policy.report_work,
                team.nodes, since_fork=dive)


def _auto_worker(run: _Run, team: Team) -> Worker:
    """auto's turns from the state at the fork (``auto.go_on``), reporting after each turn
    and each SAT solution; a failure (out of memory, a solver's error) says so."""
    def process(conn: Connection) -> None:
        report = reporter(conn)
        report(team.nodes(), team.found)

        def turns() -> bool:
            result = run.go_on(team, report)
            report(result.nodes, result.solutions)
            return result.exhausted
        guarded(conn, turns, errors=(GridsolveError, MemoryError))
    return process


def _sat_worker(puzzle: AnyPuzzle, limits: SearchLimits, solver: str,
                known: Grid | None, extra: list[list[int]],
                deadline: float | None = None) -> Worker:
    """A python-sat solver on the puzzle, sending its conflicts every REPORT_SECONDS (one it
    can interrupt ends itself at ``deadline``; another is killed there)."""
    from gridsolve.nonogram.backends import sat
    holder: list[Any] = []

    def grids() -> Iterator[Grid | None]:
        timeout = None
        if deadline is not None and sat.abilities(solver).interrupt:
            timeout = seconds_left(deadline)
        search = sat.Search(puzzle, SearchLimits(max_nodes=limits.max_nodes, timeout=timeout),
                            solver, known, time.perf_counter(), extra=extra)
        holder.append(search)
        end = search.deadline
        while True:
            if end is not None:
                search.deadline = min(end, time.perf_counter() + REPORT_SECONDS)
            answer = search.step()
            if answer is False:
                return
            if answer is None and (end is None or passed(end) or not search.built
                                   or (search.max_conflicts is not None
                                       and search.conflicts() >= search.max_conflicts)):
                raise LimitReached("SAT search limit reached")
            yield answer  # (None: a slice ended, its count so far)
    return grids_worker(grids, lambda: holder[0].conflicts() if holder else 0)


def _kissat_worker(run: _Run, limits: SearchLimits, extra: list[list[int]],
                   found: tuple[Grid, ...], seed: int = 0) -> Worker:
    """Kissat on the puzzle with ``seed`` under ``limits`` (its share of the memory), the
    team's solutions so far blocked (``found``)."""
    worker = KissatWorker(run.puzzle, limits, run.known, None, extra, run.policy, run.deadline,
                          seed)
    return side(worker, Pool(run.max_solutions, dict.fromkeys(found)), None, worker.nodes)


def _restarts_worker(puzzle: Puzzle, limits: SearchLimits) -> Worker:
    """A plain native search that restarts."""
    return grids_worker(lambda: engine.solve(puzzle, limits, restarts=True), lambda: 0)


def alone_for(puzzle: AnyPuzzle, to_kissat: bool = False,
              policy: Policy = DEFAULT_POLICY) -> int:
    """The team's work alone before the processes start (the policy's ``parallel_after``,
    ``first_work_to_kissat`` where Kissat comes next, ``parallel_after_large``)."""
    if puzzle.width * puzzle.height <= policy.small_cells:
        return (min(policy.parallel_after, policy.first_work_to_kissat) if to_kissat
                else policy.parallel_after)
    return min(policy.parallel_after, policy.parallel_after_large)


@dataclasses.dataclass
class _Run:
    """One ``--jobs`` run: the call, and what the first turns here leave to the processes
    (the cells proven; a colour puzzle's first solutions)."""

    puzzle: AnyPuzzle
    max_solutions: int
    limits: SearchLimits
    jobs: int
    with_sat: bool
    solver: str | None
    policy: Policy
    started: float
    team: Team | None = None
    known: Grid | None = None
    before: tuple[Grid, ...] = ()
    progress: Progress | None = None  # (the team's too: ``Team.report_to``)

    @property
    def deadline(self) -> float | None:
        return self.limits.deadline(self.started)

    @property
    def sat_solver(self) -> str:
        """The SAT solver named, else the one auto takes."""
        from gridsolve.nonogram.backends.auto import default_solver
        return self.solver or default_solver(self.puzzle, self.max_solutions, self.policy)

    def pool(self, workers: list[Worker], sat: bool) -> Result:
        """The first ``jobs`` of ``workers`` side by side, to the answer or the deadline (and
        DEADLINE_GRACE past it if SAT processes are among them)."""
        return pool(self.puzzle, self.max_solutions, workers[:self.jobs], self.deadline,
                    self.started, self.known, self.team, DEADLINE_GRACE if sat else 0.0,
                    self.before, self.progress)

    def free_jobs(self, idle: cores.Reading | None) -> int:
        """``jobs`` cut to the cores free of other work since ``idle`` (``free_cores_only``)."""
        if self.policy.free_cores_only:
            self.jobs = min(self.jobs, cores.free(idle, cores.reading()) or self.jobs)
        return self.jobs

    def go_on(self, team: Team, report: Callable[[int, Iterable[Grid]], None] | None = None,
              to_kissat: bool = False) -> Result:
        """auto's turns from the team's state (``auto.go_on``) with ``sat_solver``."""
        from gridsolve.nonogram.backends.auto import go_on
        return go_on(team, self.max_solutions, self.limits, self.sat_solver, self.started,
                     to_kissat=to_kissat, report=report)


def _one_job(result: Result) -> Result:
    """A run that went on in this process alone, as one job does."""
    return dataclasses.replace(result, stats={**result.stats, "jobs": 1})


def analyse(puzzle: AnyPuzzle, max_solutions: int = 2, limits: SearchLimits = SearchLimits(),
            jobs: int = 2, *, with_sat: bool = True, solver: str | None = None,
            policy: Policy = DEFAULT_POLICY, progress: Progress | None = None) -> Result:
    """Search with up to ``jobs`` processes; ``with_sat``: method auto, else native."""
    if limits.max_nodes is not None or jobs <= 1 or not can_fork():
        if not with_sat:
            return engine.analyse(puzzle, max_solutions, limits, policy=policy,
                                  progress=progress)
        from gridsolve.nonogram.backends import auto
        return auto.analyse(puzzle, max_solutions, limits, solver=solver, policy=policy,
                            progress=progress)
    run = _Run(puzzle, max_solutions, limits, jobs, with_sat, solver, policy,
               time.perf_counter(), progress=progress)
    idle = cores.reading()  # how busy the machine's other cores are, over the first turn
    if with_sat and solver is not None and sat_installed():
        from gridsolve.nonogram.backends.auto import check_named
        check_named(solver, limits)  # as in auto: at once, on easy puzzles too
    if with_sat and sat_installed():
        from gridsolve.nonogram.backends import auto
        name = solver or auto.default_solver(puzzle, max_solutions, policy)
        if auto.sat_first(puzzle, name, limits, policy):  # (n-Dom: SAT alone after a short
            return _one_job(auto.analyse(puzzle, max_solutions, limits, solver=solver,  # turn;
                                         policy=policy, progress=progress))  # 0040)
    run.team = team = team_for(puzzle, max_solutions, policy=policy)
    if team is None:
        return _colour(run, idle)
    team.report_to(progress)
    from gridsolve.nonogram.backends.auto import small_for_kissat
    to_kissat = (with_sat and small_for_kissat(puzzle, solver, SearchLimits(), max_solutions,
                                               policy) and sat_installed())
    ended, to_kissat = _first_turns(run, team, to_kissat)
    if ended or passed(run.deadline):
        return team.result()
    if run.free_jobs(idle) > 1:  # as many processes as cores are free
        run.known = team.partial()
        return _black_and_white(run, team, to_kissat)
    if with_sat:  # the rest here, as one job goes on after the same first turns
        return _one_job(run.go_on(team, to_kissat=to_kissat))
    team.solve(limits)
    return _one_job(dataclasses.replace(team.result(), seconds=time.perf_counter() - run.started))


def _first_turns(run: _Run, team: Team, to_kissat: bool) -> tuple[bool, bool]:
    """The team's first turn here (``alone_for``; the whole of it when Kissat is to come
    next but is not installed), then the dive's: whether that ended the search, and whether
    Kissat still comes next."""
    from gridsolve.nonogram.backends.auto import _kissat_installed, dive_first
    first = SearchLimits(max_nodes=run.policy.auto_nodes, timeout=run.limits.timeout)
    for after in (alone_for(run.puzzle, to_kissat, run.policy),
                  alone_for(run.puzzle, False, run.policy)):
        # (its first slice is one node: Team.run sizes the later ones by its work)
        if team.run(first, max(0, after - team.work())) or passed(run.deadline):
            return True, to_kissat
        if not to_kissat or _kissat_installed():
            break
        to_kissat = False  # no Kissat: the whole first turn, then Glucose (as auto)
    return dive_first(team, run.limits, run.deadline), to_kissat


def _black_and_white(run: _Run, team: Team, to_kissat: bool) -> Result:
    """The processes' plan: glucose-syrup's beside auto's (0024, 0030); Kissat first on the
    large puzzles auto hands to it (0023); else the team, SAT (or the dive), the native
    restarts and Kissat's other seeds (0022)."""
    if run.with_sat and _syrup_for(run.puzzle, run.solver, run.max_solutions, run.policy):
        answer = _with_syrup(run, team)
        if answer is not None:
            return answer
    kissat_first = (run.with_sat and not to_kissat and run.solver is None
                    and run.sat_solver == KISSAT)
    runs = max(1, run.jobs - 2) if to_kissat else max(2, run.jobs - 1) if kissat_first else 1
    sat_side = (_sat_side(run, KISSAT if to_kissat else run.solver, team, runs=runs)
                if run.with_sat else [])
    own = _team_worker(team, run.limits)
    restarts = _restarts_worker(team.puzzle, run.limits)
    first = kissat_first and len(sat_side) > 1  # then the dive second where it runs (0029)
    # native, or no SAT: the dive beside the team, as on one core
    dive = ([_team_worker(team, run.limits, dive=True)]
            if (first or not sat_side) and dives(team.puzzle, run.policy) else [])
    if first:
        return _team_waits(run, team, [*sat_side[:1], *dive, *sat_side[1:2], own,
                                       *sat_side[2:], restarts][:run.jobs], own)
    return run.pool([own, *sat_side[:1], *dive, restarts, *sat_side[1:]], bool(sat_side))


def _colour(run: _Run, idle: cores.Reading | None) -> Result:
    """A colour puzzle: its engine's first turn here, as auto's (native: ``parallel_after``
    work), then a new colour search and SAT, seeded with what the root proved, side by side;
    on the colour dive's puzzles, the colour turns go on instead (``_colour_turns``)."""
    puzzle, policy = cast(ColourPuzzle, run.puzzle), run.policy
    from gridsolve.nonogram.backends.auto import colour_first, colour_turn, colour_turns_first
    if run.with_sat:
        first = colour_turns_first(puzzle, run.max_solutions, run.limits, run.started, True,
                                   policy, run.progress)
        if first is not None:
            return first if isinstance(first, Result) else _colour_turns(run, idle, first)
    alone, root = colour_first(puzzle, run.max_solutions, SearchLimits(timeout=run.limits.timeout),
                               run.with_sat, policy,
                               min(policy.parallel_after, colour_turn(puzzle, policy))
                               if run.with_sat else policy.parallel_after)
    if settled(alone, run.max_solutions) or passed(run.deadline):
        return alone
    if run.free_jobs(idle) <= 1:  # the other cores are busy: on here, as one job would
        return _colour_one_process(run, alone, root)
    run.before, run.known = alone.solutions, alone.partial  # (its solutions stay pooled)
    own = grids_worker(lambda: engine.solve(puzzle, run.limits), lambda: 0)
    return _colour_beside_sat(run, own, root)


def _colour_turns(run: _Run, idle: cores.Reading | None, native: ColourWorker) -> Result:
    """After the colour turns' first: on one free core the rest of auto's plan here
    (``auto.colour_after_first``); on more, they go on in a process of their own (from where
    they stand) beside SAT's, seeded with what their root proved."""
    from gridsolve.nonogram.backends.auto import colour_after_first
    if run.free_jobs(idle) <= 1:
        return _one_job(colour_after_first(native, run.limits, run.sat_solver, run.started,
                                           None, True))
    turns = native.turns
    run.before, run.known = tuple(turns.found), turns.partial()
    own = side(native, Pool(run.max_solutions, dict(turns.found)), run.policy.report_work,
               native.nodes)
    return _colour_beside_sat(run, own, engine.ColourRoot.of(turns.plain))


def _colour_beside_sat(run: _Run, own: Worker, root: engine.ColourRoot) -> Result:
    """A colour search's process (``own``) beside SAT's, these seeded with ``run.known`` and
    the clauses of what the colour ``root`` proved."""
    sat_side: list[Worker] = []
    if run.with_sat:
        from gridsolve.nonogram.backends import cnf
        extra = cnf.colour_root_clauses(cast(ColourPuzzle, run.puzzle), root.masks,
                                        root.implications)
        sat_side = _sat_side(run, run.solver, None, extra=extra)
    return run.pool([own, *sat_side], bool(sat_side))


def _colour_one_process(run: _Run, alone: Result, root: engine.ColourRoot) -> Result:
    """The rest of a colour puzzle's run here after its engine's first turn (``alone``)."""
    from gridsolve.nonogram.backends.auto import colour_handover
    if run.with_sat and (run.solver is not None or sat_installed()):
        return _one_job(colour_handover(run.puzzle, run.max_solutions, run.limits,
                                        run.sat_solver, run.started, None, alone, root,
                                        run.policy))
    again = engine.analyse(run.puzzle, run.max_solutions, run.limits, policy=run.policy)
    return _one_job(dataclasses.replace(
        repooled(again, again.solutions + alone.solutions, run.max_solutions, again.exhausted),
        nodes=alone.nodes + again.nodes))


def _team_waits(run: _Run, team: Team, chosen: list[Worker], own: Worker | None) -> Result:
    """The ``chosen`` processes; when the team's ``own`` is not among them and they all end
    without the answer (out of memory, a failed program), the team goes on here: auto's
    turns (``go_on``) if ``own`` is None, else its search."""
    result = run.pool(chosen, True)
    if own in chosen:
        return result
    if settled(result, run.max_solutions) or passed(run.deadline):
        return result if own is None else dataclasses.replace(
            result, nodes=result.nodes + team.nodes())
    before = team.nodes()
    if own is None:
        here = run.go_on(team)
        solutions, exhausted, nodes = here.solutions, here.exhausted, here.nodes - before
    else:
        team.run(run.limits)
        # (once the team is exhausted, its solutions are all of them)
        solutions, exhausted, nodes = tuple(team.found), team.complete, team.nodes()
    return dataclasses.replace(
        repooled(result, (*result.solutions, *solutions), run.max_solutions, exhausted),
        nodes=result.nodes + nodes, seconds=time.perf_counter() - run.started,
        stats={**result.stats, "team_went_on": 1})


def _with_syrup(run: _Run, team: Team) -> Result | None:
    """auto's turns in one process and glucose-syrup's threads on the other cores (the
    native restarts on any left): a thread per job past auto's (``syrup_threads`` at most,
    as many as their models fit the memory), seeded as auto's SAT side; None if none fits."""
    from gridsolve.nonogram.backends import auto, syrup
    puzzle, known, limits, policy = team.puzzle, run.known, run.limits, run.policy
    if auto.sat_fits(puzzle, known, limits, run.deadline, policy=policy):
        return None
    threads = auto.models_that_fit(puzzle, known, limits,
                                   min(run.jobs - 1, policy.syrup_threads) + 1,
                                   overhead=syrup.THREAD_BYTES, policy=policy) - 1
    if threads < 1:
        return None
    # (auto's process holds a model too)
    memory = None if limits.max_memory is None else limits.max_memory * threads // (threads + 1)
    worker = SyrupWorker(puzzle, threads, known, auto.root_clauses(team, known), memory,
                         policy, run.deadline)
    chosen = [_auto_worker(run, team),
              side(worker, Pool(team.max_solutions, dict(team.found)), None, worker.nodes),
              _restarts_worker(puzzle, limits)][:run.jobs - threads + 1]
    result = _team_waits(run, team, chosen, None)
    return dataclasses.replace(result, stats={**result.stats, "sat_threads": threads})


def _syrup_for(puzzle: AnyPuzzle, solver: str | None, max_solutions: int,
               policy: Policy = DEFAULT_POLICY) -> bool:
    """Does the SAT side go to glucose-syrup's threads: a large black-and-white puzzle auto
    hands to Glucose, no solver named, the program usable (0022, 0024)?"""
    from gridsolve.nonogram.backends.auto import default_solver
    if (solver is not None or not abilities(puzzle).moves
            or puzzle.width * puzzle.height <= policy.small_cells
            or max_solutions > policy.program_max_solutions
            or default_solver(puzzle, max_solutions, policy) == KISSAT):
        return False
    from gridsolve.nonogram.backends import syrup
    return syrup.usable()


def _sat_side(run: _Run, solver: str | None, team: Team | None, runs: int = 1,
              extra: list[list[int]] | None = None) -> list[Worker]:
    """The SAT processes, seeded as auto's SAT side (a colour puzzle's clauses: ``extra``):
    Kissat seeds 0, 1, ... up to ``runs`` whose models fit the memory, or one python-sat
    solver (``solver``, else the one auto takes); none if its model does not fit."""
    from gridsolve.nonogram.backends import auto, sat
    puzzle, known, limits, policy = run.puzzle, run.known, run.limits, run.policy
    name = solver or auto.default_solver(puzzle, run.max_solutions, policy)
    if name == KISSAT:  # named or chosen: it must be there (a missing one is a clear error)
        from gridsolve.nonogram.backends import kissat
        kissat.require()
    else:
        try:
            sat.require()
        except SolverUnavailable:
            return []
        sat.check_solver(name, limits)  # unknown, not loadable, no node limit: one line here
    if auto.sat_fits(puzzle, known, limits, run.deadline, policy=policy):
        return []
    if extra is None:
        extra = [] if team is None else auto.root_clauses(team, known)
    if name != KISSAT:
        return [_sat_worker(puzzle, limits, name, known, extra, run.deadline)]
    found = () if team is None else tuple(team.found)
    if runs > 1:
        # each holds a model and is capped at its share of the memory limit
        runs = auto.models_that_fit(puzzle, known, limits, runs, policy=policy)
        if limits.max_memory is not None:
            limits = dataclasses.replace(limits, max_memory=limits.max_memory // runs)
    return [_kissat_worker(run, limits, extra, found, seed=seed) for seed in range(runs)]
