"""The ``auto`` method: the native engine first, then SAT and the native engine in turns.

A plan over the schedule's workers (``engine.schedule``; docs/ARCHITECTURE.md, "The
schedule"); every number is a ``Policy`` field, which says what it trades and which decision
record measured it, and every turn is counted in work, nodes or conflicts, so one process
repeats its runs exactly (0034). The plan:

1. The team's first turn (``_first_turn``: ``auto_nodes`` nodes, ``first_work`` work), then
   on the puzzles the dive is for its first turn (``Team.first_dive``, 0028). Most puzzles
   end there.
2. SAT comes in when its model fits (``fits.sat_fits``: memory, and under a timeout the time
   to build it), seeded with the cells the team proved at its root and what its probes
   there fixed (unit and binary clauses). Its solver is ``default_solver``: python-sat's
   ``DEFAULT_SOLVER``, or Kissat on puzzles whose every line is long (0016).
3. ``go_on``: SAT (python-sat) and the team in turns, SAT until its work reaches
   ``sat_work`` of the team's so far, the team until it has had twice its last share, the
   dive half that (0018, 0020); small puzzles still open after ``kissat_after_rounds``
   rounds go to Kissat (0019, 0021). A solver that cannot be paused (Kissat, CaDiCaL) runs
   alone (``_alone``), except Kissat on the dive's puzzles: its conflict-limited runs and
   the dive in equal, growing turns (``_kissat_in_turns``, 0029).
4. A colour puzzle (no team yet) hands over once: its engine for ``colour_work``, then SAT
   alone seeded with what its root proved (``_colour``, 0026, 0027).

Solutions are pooled; when one search is exhausted, the pool is every solution. Without
python-sat (and Kissat not taken), or when SAT's model does not fit, the native engine goes
on alone. A caller's ``max_nodes`` caps native nodes and SAT conflicts together; ``nodes``
is their sum.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import cast

from gridsolve.errors import SolverUnavailable
from gridsolve.nonogram import engine
from gridsolve.nonogram.engine import (Progress, Result, SearchLimits, Team, abilities,
                                       passed, repooled, seconds_left, settled)
from gridsolve.nonogram.engine.schedule import Pool, Scheduler
from gridsolve.nonogram.engine.team import DiveWorker, TeamWorker, dives, team_for
from gridsolve.nonogram.backends._common import DEFAULT_SOLVER, KISSAT, sat_installed
from gridsolve.nonogram.backends.fits import models_that_fit, sat_fits
from gridsolve.nonogram.backends.workers import KissatWorker, SatWorker
from gridsolve.nonogram.model import AnyPuzzle, ColourPuzzle, Grid
from gridsolve.nonogram.policy import DEFAULT_POLICY, Policy

__all__ = ["default_solver", "sat_fits", "sat_work", "models_that_fit", "dive_first",
           "go_on", "small_for_kissat", "check_named", "first_work", "root_clauses",
           "colour_turn", "analyse"]


def default_solver(puzzle: AnyPuzzle, max_solutions: int = 2,
                   policy: Policy = DEFAULT_POLICY) -> str:
    """SAT's solver unless one is named: Kissat for a puzzle whose every line has
    ``kissat_min_line`` cells or more and whose engine has local moves and a guided search
    (the next solution after a program's, which starts anew for each: black and white),
    Kissat installed, at most ``program_max_solutions`` asked; else DEFAULT_SOLVER. (A
    smaller puzzle does not import the Kissat backend.)"""
    if (abilities(puzzle).moves and min(puzzle.width, puzzle.height) >= policy.kissat_min_line
            and max_solutions <= policy.program_max_solutions):
        from gridsolve.nonogram.backends import kissat
        if kissat.installed():
            return KISSAT
    return DEFAULT_SOLVER


def check_named(solver: str | None, limits: SearchLimits) -> None:
    """A named python-sat solver that cannot run here (unknown, not loadable, no count, no
    node limit) is an error before the native turn (auto, ``--jobs``), not after it on hard
    puzzles only. Call with python-sat installed; nothing is imported when none is named."""
    if solver is not None and solver != KISSAT:
        from gridsolve.nonogram.backends import sat
        sat.check_solver(solver, limits)


def small_for_kissat(puzzle: AnyPuzzle, solver: str | None, limits: SearchLimits,
                     max_solutions: int = 2, policy: Policy = DEFAULT_POLICY) -> bool:
    """Does this puzzle, if still open after its first native turn, go to Kissat (0019,
    0021): black and white, at most ``small_cells`` cells, no solver named, no node limit,
    at most ``program_max_solutions`` asked? Whether Kissat is installed is asked only then
    (its import costs ~20 ms)."""
    return (solver is None and limits.max_nodes is None and abilities(puzzle).moves
            and puzzle.width * puzzle.height <= policy.small_cells
            and max_solutions <= policy.program_max_solutions)


def first_work(puzzle: AnyPuzzle, to_kissat: bool, policy: Policy = DEFAULT_POLICY) -> int:
    """The work of the team's first turn: ``first_work`` on small puzzles
    (``first_work_to_kissat`` where Kissat may come next), ``first_work_large`` on others."""
    if puzzle.width * puzzle.height > policy.small_cells:
        return policy.first_work_large
    return policy.first_work_to_kissat if to_kissat else policy.first_work


def _kissat_installed() -> bool:
    from gridsolve.nonogram.backends import kissat
    return kissat.installed()


def _sat() -> ModuleType | None:
    """The SAT backend, imported now (only when SAT is needed), or None if python-sat is
    installed but cannot be imported."""
    from gridsolve.nonogram.backends import sat
    try:
        sat.require()
    except SolverUnavailable:
        return None
    return sat


def _skipped(result: Result, why: str, started: float) -> Result:
    """A native result when SAT did not fit (stats say why: sat_skipped_memory or _time)."""
    return dataclasses.replace(result, seconds=time.perf_counter() - started,
                               stats={**result.stats, f"sat_skipped_{why}": 1})


def analyse(puzzle: AnyPuzzle, max_solutions: int = 2, limits: SearchLimits = SearchLimits(), *,
            solver: str | None = None, encoding: str | None = None,
            implications: bool = True, policy: Policy = DEFAULT_POLICY,
            progress: Progress | None = None) -> Result:
    """Native under the auto budget, then SAT seeded with the native root grid: in turns with
    the native search (black and white, a SAT solver that can be interrupted), else alone.
    ``solver`` and ``encoding`` name SAT's solver and CNF model (defaults: ``default_solver``,
    ``cnf.encoding_for``); with ``implications``, what the native probes at the root fixed goes
    to SAT too, as binary clauses (``cnf.implication_clauses``; colour: the colours open cells
    lost as units too, ``cnf.colour_root_clauses``); ``policy`` holds every tuned number;
    ``progress`` is told the nodes and solutions as they grow."""
    started = time.perf_counter()
    name = solver or default_solver(puzzle, max_solutions, policy)
    if name != KISSAT and not sat_installed():
        return engine.analyse(puzzle, max_solutions, limits, policy=policy, progress=progress)
    check_named(solver, limits)
    deadline = limits.deadline(started)
    if puzzle.width * puzzle.height > policy.small_cells:
        # a model that cannot fit the time left: native alone from the start
        why = sat_fits(puzzle, None, limits, deadline, encoding, policy=policy)
        if why:
            return _skipped(engine.analyse(puzzle, max_solutions, limits, policy=policy,
                                           progress=progress), why, started)
    team = team_for(puzzle, max_solutions, policy=policy)
    if team is not None:
        team.report_to(progress)
        return _in_turns(team, max_solutions, limits, name, started, encoding, implications,
                         small_for_kissat(puzzle, solver, limits, max_solutions, policy))
    return _colour(puzzle, max_solutions, limits, name, started, encoding, implications,
                   policy)


def _colour(puzzle: AnyPuzzle, max_solutions: int, limits: SearchLimits, name: str,
            started: float, encoding: str | None, implications: bool, policy: Policy) -> Result:
    """A colour puzzle: the colour engine for ``colour_work`` and ``auto_nodes``, then SAT
    alone, seeded with what its root proved (0026, 0027)."""
    budget = dataclasses.replace(limits, max_nodes=policy.auto_nodes if limits.max_nodes is None
                                 else min(policy.auto_nodes, limits.max_nodes))
    native, root = engine.analyse_colour(cast(ColourPuzzle, puzzle), max_solutions, budget,
                                         keep_root=implications,
                                         work=colour_turn(puzzle, policy))
    if settled(native, max_solutions):  # (stopped after two or more: "multiple", not settled)
        return native
    return colour_handover(puzzle, max_solutions, limits, name, started, encoding, native,
                           root, policy)


def colour_handover(puzzle: AnyPuzzle, max_solutions: int, limits: SearchLimits, name: str,
                    started: float, encoding: str | None, native: Result,
                    root: engine.ColourRoot, policy: Policy) -> Result:
    """After the colour engine's first turn (``native``, with its ``root``): SAT alone,
    seeded with what the root proved, under what is left of the limits."""
    deadline = limits.deadline(started)
    sat = None
    if name != KISSAT:
        sat = _sat()
        if sat is None:  # installed but broken: the native engine alone
            return engine.analyse(puzzle, max_solutions, limits, policy=policy)
    from gridsolve.nonogram.backends import cnf
    # (made before the time left is taken: at the engine's cap, 2 MiB of records, ~0.2 s)
    extra = cnf.colour_root_clauses(cast(ColourPuzzle, puzzle), root.masks, root.implications)
    spent = time.perf_counter() - started
    left_nodes = None if limits.max_nodes is None else limits.max_nodes - native.nodes
    left_time = None if limits.timeout is None else limits.timeout - spent
    if (left_nodes is not None and left_nodes <= 0) or (left_time is not None and left_time <= 0):
        return native
    why = sat_fits(puzzle, native.partial, limits, deadline, encoding, len(extra), policy)
    if why:  # native alone again, under what is left of the caller's limits
        again = _pooled(native, engine.analyse(puzzle, max_solutions, dataclasses.replace(
            limits, max_nodes=left_nodes, timeout=left_time)), max_solutions)
        return _skipped(dataclasses.replace(again, nodes=native.nodes + again.nodes), why,
                        started)
    left = SearchLimits(left_nodes, left_time, limits.max_memory)
    if sat is None:  # Kissat
        from gridsolve.nonogram.backends import kissat
        answer = kissat.analyse(puzzle, max_solutions, left, known=native.partial,
                                encoding=encoding, extra=extra, policy=policy)
    else:
        answer = sat.analyse(puzzle, max_solutions, left, solver=name, known=native.partial,
                             encoding=encoding, extra=extra)
    answer = _pooled(native, answer, max_solutions)
    stats = {"native_nodes": native.nodes, "handover": 1,
             **{f"sat_{k}": v for k, v in answer.stats.items()}}
    return Result(answer.status, answer.solutions, native.nodes + answer.nodes,
                  time.perf_counter() - started, native.partial, stats,
                  exhausted=answer.exhausted)


def colour_turn(puzzle: AnyPuzzle, policy: Policy = DEFAULT_POLICY) -> int:
    """The colour engine's first turn in line solves: ``colour_work`` over the puzzle's mean
    line length (a colour line solve costs about its length)."""
    mean = 2 * puzzle.width * puzzle.height / max(1, puzzle.width + puzzle.height)
    return int(policy.colour_work / max(1.0, mean))


def _pooled(first: Result, then: Result, max_solutions: int) -> Result:
    """``then`` (a search from the start) with the solutions ``first`` found before it stopped
    (a first turn can stop with several: "multiple", not settled) pooled in; exhausted only
    if ``then`` was (its solutions are then every solution)."""
    return repooled(then, then.solutions + first.solutions, max_solutions, then.exhausted)


def _in_turns(team: Team, max_solutions: int, limits: SearchLimits, solver: str,
              started: float, encoding: str | None, implications: bool,
              to_kissat: bool = False) -> Result:
    """The native team's first turn (``first_work``), the dive's first where it is for, then
    ``go_on``: SAT and the native team in turns, each resuming where it stopped."""
    policy = team.policy
    deadline = limits.deadline(started)
    if _first_turn(team, max_solutions, limits, first_work(team.puzzle, to_kissat, policy)):
        return team.result()
    if to_kissat and not _kissat_installed():  # no Kissat: the whole first turn, then turns
        to_kissat = False
        if _first_turn(team, max_solutions, limits,
                       max(0, first_work(team.puzzle, False, policy) - team.work())):
            return team.result()
    if dive_first(team, limits, deadline):
        return team.result()
    return go_on(team, max_solutions, limits, solver, started, encoding, implications,
                 to_kissat)


def go_on(team: Team, max_solutions: int, limits: SearchLimits, solver: str, started: float,
          encoding: str | None = None, implications: bool = True, to_kissat: bool = False,
          report: Callable[[int, Iterable[Grid]], None] | None = None) -> Result:
    """After the team's first turn and the dive's (``dive_first``): SAT and the team in
    turns, or SAT alone, to the answer or the limits (counted from ``started``).
    ``parallel`` runs it in a process of its own (``--jobs``), which ``report`` tells the
    nodes so far and the solutions pooled so far after each of SAT's solutions and each
    turn. The turns: SAT's conflicts until they are worth ``sat_work`` of the team's work so
    far, then the team until its work is twice what it was (and the dive half as much)."""
    puzzle, policy = team.puzzle, team.policy
    deadline = limits.deadline(started)
    small = puzzle.width * puzzle.height <= policy.small_cells
    if passed(deadline):
        # the time is up: building the SAT model would overrun it
        return dataclasses.replace(team.result(), seconds=time.perf_counter() - started)
    sat = None
    if solver != KISSAT:
        sat = _sat()
        if sat is None:  # installed but broken: the native engine alone (and its dive)
            team.solve(limits)
            return team.result()
    why = sat_fits(puzzle, team.partial(), limits, deadline, encoding, policy=policy)
    if why:  # the native engine alone, under the caller's limits (if it can go on)
        team.solve(limits)
        return _skipped(team.result(), why, started)
    # the model is built up to the deadline at most (it fits: no memory limit again)
    known = team.partial()
    extra = root_clauses(team, known, encoding) if implications else []
    if sat is None or not sat.abilities(solver).in_turns:  # Kissat, CaDiCaL...
        return _alone(team, max_solutions, limits, solver, started, known, encoding, extra)
    search = sat.Search(puzzle, SearchLimits(timeout=limits.timeout), solver, known, started,
                        encoding, extra)
    pool = Pool(max_solutions, dict(team.found))
    sat_side = SatWorker(search, puzzle, policy, deadline)
    native, dive = TeamWorker(team, limits.timeout), DiveWorker(team, limits.timeout)
    plan = Scheduler(pool, [native, dive, sat_side], limits.max_nodes, deadline)

    def tell() -> None:
        if report is not None:
            report(plan.nodes(), pool.found)
        if team.progress is not None:
            team.progress.update(plan.nodes(), len(pool.found), "sat")
    pool.tell = tell
    rounds = 0
    # small puzzles still open after kissat_after_rounds rounds go to Kissat (0019, 0021)
    switch = False
    try:
        share = first_work(puzzle, to_kissat, policy)  # the team's first turn
        while not pool.done() and not passed(deadline):
            rounds += 1
            if to_kissat and rounds > policy.kissat_after_rounds:
                switch = True
                break
            if plan.nodes_left() == 0:  # (a round begun: the node limit ends it at once)
                break
            # SAT up to sat_work times the native share in all (alone once the team stopped)
            target = sat_work(share, rounds, small, policy) // sat_side.rate * sat_side.rate
            if plan.turn(sat_side, None if team.stopped else int(target) - sat_side.work()):
                break
            # the native team up to twice its last share in all (its first turn counts);
            # the dive half as much
            share *= 2
            if plan.turn(native, share - team.work()):
                break
            if dives(puzzle, policy) and plan.turn(dive, share // 2):
                break
    finally:
        sat_stats = search.stats()
        search.close()
    if switch:
        answer = _alone(team, max_solutions, limits, KISSAT, started, known, encoding, extra,
                        found=tuple(pool.found))
        return dataclasses.replace(answer, nodes=answer.nodes + sat_stats.get("conflicts", 0),
                                   stats={**answer.stats, "rounds": rounds,
                                          "nearby": answer.stats["nearby"] + sat_side.moved,
                                          "glucose_conflicts": sat_stats.get("conflicts", 0)})
    solutions = tuple(pool.found)[:max_solutions]
    native_stats = team.stats()
    stats = {"native_nodes": native_stats["nodes"], "handover": 1, "rounds": rounds,
             "nearby": native_stats["nearby"] + sat_side.moved,
             **{k: v for k, v in native_stats.items() if k.startswith("dive_")},
             **{f"sat_{k}": v for k, v in sat_stats.items()}}
    return Result.of_count(solutions, max_solutions, pool.complete,
                           native_stats["nodes"] + sat_stats.get("conflicts", 0),
                           time.perf_counter() - started, team.partial(), stats)


def root_clauses(team: Team, known: Grid | None,
                 encoding: str | None = None) -> list[list[int]]:
    """What the team's probes at its root fixed, as binary clauses for SAT
    (``cnf.implication_clauses``), unless they outnumber ``implication_max_share`` of the
    model's clauses: then none (0035)."""
    from gridsolve.nonogram.backends import cnf
    extra = cnf.implication_clauses(team.root_implications(), known)
    model = cnf.size(team.puzzle, known, encoding=encoding).clauses
    return extra if len(extra) <= team.policy.implication_max_share * model else []


def _first_turn(team: Team, max_solutions: int, limits: SearchLimits, work: int) -> bool:
    """The native team's first turn, up to ``auto_nodes`` nodes (counting past
    ``auto_count_from`` solutions: ``auto_nodes`` past the last solution it reached) and
    ``work``, a node that runs past ``first_stop`` work (``long_line_stop`` on puzzles with a
    line over ``long_line`` cells) stopping the team for good (SAT alone goes on); True if
    that ended the search (it was not stopped)."""
    policy = team.policy
    cap = policy.auto_nodes
    end = team.work() + work
    long = max(team.puzzle.width, team.puzzle.height) > policy.long_line
    halt = team.work() + (policy.long_line_stop if long else policy.first_stop)
    while True:
        turn = dataclasses.replace(limits, max_nodes=cap if limits.max_nodes is None
                                   else min(cap, limits.max_nodes))
        if team.run(turn, max(0, end - team.work()), max(0, halt - team.work())):
            return not team.stopped
        if (max_solutions <= policy.auto_count_from or team.reached + policy.auto_nodes <= cap
                or team.stopped or team.work() >= end or team.nodes() < cap):
            return False
        cap = team.reached + policy.auto_nodes


def dive_first(team: Team, limits: SearchLimits, deadline: float | None) -> bool:
    """The dive's first turn after the team's (the policy's ``dive_first_work`` and
    ``dive_first_fails``) on the puzzles it is for (``dives``); True if that ended the
    search."""
    return team.first_dive(limits, deadline)


def _kissat_in_turns(team: Team, max_solutions: int, limits: SearchLimits, left: SearchLimits,
                     known: Grid, encoding: str | None, extra: list[list[int]],
                     found: tuple[Grid, ...], deadline: float | None) -> Result:
    """Kissat's runs in turns with the dive on one core: a run of ``kissat_turn_conflicts``
    conflicts (seeded as ``_alone`` says, the solutions so far blocked, under ``left``: what
    is left of the caller's limits), then the dive (``Team.dive``, going on where it
    stopped) ``kissat_dive_work`` a conflict, each pair ``kissat_turn_growth`` times the last, until
    one ends the search or the deadline. A run that reaches its conflicts ends (a program
    cannot be paused at a count), and the next starts anew: over the doublings at most
    about twice Kissat's work, and the same turns on every machine (0029, 0034). The
    solutions are pooled in the team's; when either search is exhausted, they are every
    solution. The same Result as ``kissat.analyse``, with the turns in its stats."""
    policy = team.policy
    started = time.perf_counter()
    team.found.update(dict.fromkeys(found))
    pool = Pool(max_solutions, team.found)  # the team's own: the dive's done() reads it
    runs = KissatWorker(team.puzzle, left, known, encoding, extra, policy, deadline)
    dive = DiveWorker(team, limits.timeout)
    plan = Scheduler(pool, [runs, dive], None, deadline)
    work, turns = policy.kissat_turn_conflicts * runs.rate, 0
    while not team.done():
        if team.progress is not None:
            team.progress.update(team.nodes() + runs.nodes(), len(pool.found), "kissat")
        if plan.turn(runs, work):
            break
        plan.turn(dive, work)
        turns += 1
        work = int(work // runs.rate * policy.kissat_turn_growth) * runs.rate
    return Result.of_count(tuple(team.found)[:max_solutions], max_solutions,
                           pool.complete or team.complete, runs.totals["conflicts"],
                           time.perf_counter() - started, known,
                           {**runs.totals, "dive_turns": turns})


def sat_work(native: int, rounds: int, small: bool, policy: Policy = DEFAULT_POLICY) -> float:
    """SAT's work in all by the end of its turn in round ``rounds`` (from 1), when the native
    search has had ``native`` work: ``sat_share`` times that, or on small puzzles
    ``sat_share_small`` times, growing by ``sat_share_growth`` each round up to
    ``sat_share_small_max``."""
    if not small:
        return policy.sat_share * native
    return native * min(policy.sat_share_small_max,
                        policy.sat_share_small * policy.sat_share_growth ** (rounds - 1))


def _alone(team: Team, max_solutions: int, limits: SearchLimits, solver: str, started: float,
           known: Grid, encoding: str | None, extra: list[list[int]],
           found: tuple[Grid, ...] | None = None) -> Result:
    """After the team's first turn, SAT alone for the rest of the limits, seeded as in the
    turns (the root's cells and implications; the team's solutions blocked and counted): for
    solvers whose run cannot be paused (Kissat, a program; python-sat's CaDiCaL and others it
    cannot interrupt, run in a child process). The native team does not go on (where auto
    takes Kissat, the native search's lines are past its one-word bit-parallel solver, and on
    random 70x70 it ended none that Kissat did not end sooner; 0016); on the puzzles the dive
    is for, the dive takes turns with Kissat (``_kissat_in_turns``)."""
    from gridsolve.nonogram.backends import cnf
    puzzle, policy = team.puzzle, team.policy
    deadline = limits.deadline(started)
    left = SearchLimits(
        max_nodes=None if limits.max_nodes is None else max(0, limits.max_nodes - team.nodes()),
        timeout=seconds_left(deadline), max_memory=limits.max_memory)
    found = tuple(team.found if found is None else found)[:max_solutions]
    if len(found) >= max_solutions:  # the first turn found enough before it was stopped
        return dataclasses.replace(team.result(), seconds=time.perf_counter() - started)
    if (solver == KISSAT and dives(puzzle, policy) and limits.max_nodes is None
            and not team.stopped):
        answer = _kissat_in_turns(team, max_solutions, limits, left, known, encoding, extra,
                                  found, deadline)
    elif solver == KISSAT:
        from gridsolve.nonogram.backends import kissat
        answer = kissat.analyse(puzzle, max_solutions, left, known=known, encoding=encoding,
                                extra=extra, found=found, policy=policy)
    else:
        from gridsolve.nonogram.backends import sat
        more = sat.analyse(puzzle, max_solutions - len(found), left, solver=solver,
                           known=known, encoding=encoding,
                           extra=extra + [cnf.blocking_clause(puzzle, g) for g in found])
        # (SAT's search exhausted: its solutions and the team's are every solution)
        answer = repooled(more, found + more.solutions, max_solutions, more.exhausted)
    native = team.stats()
    stats = {"native_nodes": native["nodes"], "handover": 1, "rounds": 1,
             "nearby": native["nearby"] + answer.stats.get("nearby", 0),
             **{k: v for k, v in native.items() if k.startswith("dive_")},
             **{f"sat_{k}": v for k, v in answer.stats.items() if k != "nearby"}}
    return Result(answer.status, answer.solutions, native["nodes"] + answer.nodes,
                  time.perf_counter() - started, known, stats, exhausted=answer.exhausted)
