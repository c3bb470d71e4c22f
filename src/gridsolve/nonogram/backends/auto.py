"""The ``auto`` method, a plan over the schedule's workers: the native team's first turn,
the dive's where it is for, then SAT and the native search in turns (or SAT alone, or Kissat
and the dive in turns); a colour puzzle hands over to SAT once, or on the colour dive's
sizes takes turns with it. The plan and the decision records behind each step are in
docs/engine.md, section 6; every number is a ``Policy`` field, and every turn is counted in
work, so one process repeats its runs exactly (0034).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import TYPE_CHECKING, cast

from gridsolve.errors import SolverUnavailable
from gridsolve.nonogram import engine
from gridsolve.nonogram.engine import (Progress, Result, SearchLimits, Team, abilities,
                                       passed, repooled, seconds_left, settled)
from gridsolve.nonogram.engine.schedule import Pool, Scheduler
from gridsolve.nonogram.engine.team import DiveWorker, TeamWorker, dives, team_for
from gridsolve.nonogram.backends._common import DEFAULT_SOLVER, KISSAT, sat_installed
from gridsolve.nonogram.backends.fits import models_that_fit, sat_fits
from gridsolve.nonogram.backends.workers import KissatWorker, SatWorker
from gridsolve.nonogram.model import AnyPuzzle, ColourPuzzle, Grid, Puzzle
from gridsolve.nonogram.policy import DEFAULT_POLICY, Policy

if TYPE_CHECKING:  # (the colour engine is imported for colour puzzles only)
    from gridsolve.nonogram.engine.colour_dive import ColourWorker

__all__ = ["default_solver", "sat_fits", "sat_work", "models_that_fit", "dive_first",
           "go_on", "small_for_kissat", "sat_first", "check_named", "first_work", "root_clauses",
           "colour_turn", "colour_first", "colour_turns_first", "colour_after_first",
           "colour_turns_go_on", "analyse"]


def default_solver(puzzle: AnyPuzzle, max_solutions: int = 2,
                   policy: Policy = DEFAULT_POLICY) -> str:
    """SAT's solver unless one is named: Kissat where every line is long and the engine has
    local moves (0016), else DEFAULT_SOLVER."""
    if (abilities(puzzle).moves and min(puzzle.width, puzzle.height) >= policy.kissat_min_line
            and max_solutions <= policy.program_max_solutions):
        from gridsolve.nonogram.backends import kissat
        if kissat.installed():
            return KISSAT
    return DEFAULT_SOLVER


def check_named(solver: str | None, limits: SearchLimits) -> None:
    """A named python-sat solver that cannot run here is an error before the native turn,
    not only on the hard puzzles that reach SAT."""
    if solver is not None and solver != KISSAT:
        from gridsolve.nonogram.backends import sat
        sat.check_solver(solver, limits)


def small_for_kissat(puzzle: AnyPuzzle, solver: str | None, limits: SearchLimits,
                     max_solutions: int = 2, policy: Policy = DEFAULT_POLICY) -> bool:
    """Does this small puzzle, if still open after its first turn, go to Kissat (0019,
    0021)? (Whether Kissat is installed is asked only then: its import costs ~20 ms.)"""
    return (solver is None and limits.max_nodes is None and abilities(puzzle).moves
            and puzzle.width * puzzle.height <= policy.small_cells
            and max_solutions <= policy.program_max_solutions)


def sat_first(puzzle: AnyPuzzle, solver: str, limits: SearchLimits,
              policy: Policy = DEFAULT_POLICY) -> bool:
    """Does this small puzzle go to SAT alone after a short first turn (0040)? Its clues fill
    under ``sat_first_density`` of the cells (n-Dom: the native search branches on and on,
    Glucose ends it 3-20x sooner; every tournament puzzle fills over a third). Not under a
    node limit: the turns keep that budget exact."""
    cells = puzzle.width * puzzle.height
    if (solver == KISSAT or limits.max_nodes is not None or cells > policy.small_cells
            or not abilities(puzzle).moves):
        return False
    return sum(sum(clue) for clue in cast(Puzzle, puzzle).rows) < policy.sat_first_density * cells


def first_work(puzzle: AnyPuzzle, to_kissat: bool, policy: Policy = DEFAULT_POLICY) -> int:
    """The work of the team's first turn (``first_work``, ``_to_kissat`` or ``_large``)."""
    if puzzle.width * puzzle.height > policy.small_cells:
        return policy.first_work_large
    return policy.first_work_to_kissat if to_kissat else policy.first_work


def _kissat_installed() -> bool:
    from gridsolve.nonogram.backends import kissat
    return kissat.installed()


def _sat() -> ModuleType | None:
    """The SAT backend, imported now, or None if python-sat is installed but broken."""
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
    """The auto plan (module docstring). ``solver`` and ``encoding`` name SAT's solver and
    CNF model; with ``implications`` what the root's probes fixed goes to SAT as clauses."""
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
                   policy, progress)


def _colour(puzzle: AnyPuzzle, max_solutions: int, limits: SearchLimits, name: str,
            started: float, encoding: str | None, implications: bool, policy: Policy,
            progress: Progress | None = None) -> Result:
    """A colour puzzle: its engine's first turn, then SAT alone (0026, 0027); on the puzzles
    the colour dive is for, the colour turns' first turn, then SAT and they in turns
    (``colour_after_first``)."""
    first = colour_turns_first(puzzle, max_solutions, limits, started, implications, policy,
                               progress)
    if isinstance(first, Result):
        return first
    if first is not None:
        return colour_after_first(first, limits, name, started, encoding, implications)
    native, root = colour_first(puzzle, max_solutions, limits, implications, policy)
    if settled(native, max_solutions):  # (stopped after two or more: "multiple", not settled)
        return native
    return colour_handover(puzzle, max_solutions, limits, name, started, encoding, native,
                           root, policy)


def colour_turns_first(puzzle: AnyPuzzle, max_solutions: int, limits: SearchLimits,
                       started: float, implications: bool, policy: Policy,
                       progress: Progress | None = None) -> ColourWorker | Result | None:
    """On the puzzles the colour dive is for (without a node limit): the colour dive and
    search's first turn (``colour_turn``), the answer if it ends there, else their worker to
    go on with (``colour_after_first``, or a process of its own beside SAT's with
    ``--jobs``); ``progress`` follows them (the CLI's live line, the cells proven at
    Ctrl-C). None where this plan does not apply."""
    from gridsolve.nonogram.engine.colour_dive import ColourTurns, ColourWorker, colour_dives
    colour = cast(ColourPuzzle, puzzle)
    if limits.max_nodes is not None or not colour_dives(colour, policy):
        return None
    turns = ColourTurns(colour, max_solutions, keep_root=implications, policy=policy)
    turns.report_to(progress)
    native = ColourWorker(turns, limits.timeout)
    alone = Scheduler(Pool(max_solutions, {}), [native], None, limits.deadline(started))
    if alone.turn(native, colour_turn(puzzle, policy)):
        return dataclasses.replace(turns.result(), seconds=time.perf_counter() - started)
    return native


def colour_after_first(native: ColourWorker, limits: SearchLimits, name: str, started: float,
                       encoding: str | None, implications: bool) -> Result:
    """After the colour turns' first: with a python-sat solver that takes turns, SAT and they
    in turns (``colour_turns_go_on``); else the one hand-over to SAT, from their root
    (``Policy.colour_sat_share`` 0 too)."""
    turns = native.turns
    sat = _sat() if name != KISSAT and turns.policy.colour_sat_share else None
    if sat is not None and sat.abilities(name).in_turns:
        return colour_turns_go_on(native, limits, name, started, encoding, implications)
    root = engine.ColourRoot.of(turns.plain, implications)
    return colour_handover(turns.puzzle, turns.max_solutions, limits, name, started, encoding,
                           turns.result(), root, turns.policy)


def colour_turns_go_on(native: ColourWorker, limits: SearchLimits, name: str, started: float,
                       encoding: str | None, implications: bool) -> Result:
    """After the colour turns' first (``colour_turns_first``): SAT, seeded with what the root
    proved, and the colour turns in turns, SAT's ``colour_sat_share`` of the native share,
    each pair ``colour_turn_growth`` times the last (0036)."""
    from gridsolve.nonogram.backends import cnf, sat
    turns = native.turns
    puzzle, policy, deadline = turns.puzzle, turns.policy, limits.deadline(started)
    pool = Pool(turns.max_solutions, dict(turns.found))
    root = engine.ColourRoot.of(turns.plain)
    extra = (cnf.colour_root_clauses(puzzle, root.masks, root.implications) if implications
             else [])
    known = turns.partial()
    why = sat_fits(puzzle, known, limits, deadline, encoding, len(extra), policy)
    if why:
        Scheduler(pool, [native], None, deadline).turn(native, None)
        return _skipped(turns.result(), why, started)
    search = sat.Search(puzzle, SearchLimits(timeout=limits.timeout), name, known, started,
                        encoding, extra)
    sat_side = SatWorker(search, puzzle, policy, deadline, rate=policy.colour_conflict_work)
    plan = Scheduler(pool, [native, sat_side], None, deadline)
    share, rounds = colour_turn(puzzle, policy), 0
    try:
        while not pool.done() and not passed(deadline):
            rounds += 1
            target = int(share * policy.colour_sat_share) // sat_side.rate * sat_side.rate
            if plan.turn(sat_side, max(sat_side.rate, target - sat_side.work())):
                break
            share = int(share * policy.colour_turn_growth)
            if plan.turn(native, share - native.work()):
                break
    finally:
        sat_stats = search.stats()
        search.close()
    stats = {**turns.stats(), "handover": 1, "rounds": rounds,
             **{f"sat_{k}": v for k, v in sat_stats.items()}}
    return Result.of_count(tuple(pool.found)[:turns.max_solutions], turns.max_solutions,
                           pool.complete, turns.nodes() + sat_stats.get("conflicts", 0),
                           time.perf_counter() - started, known, stats)


def colour_first(puzzle: AnyPuzzle, max_solutions: int, limits: SearchLimits,
                 keep_root: bool, policy: Policy,
                 work: int | None = None) -> tuple[Result, engine.ColourRoot]:
    """A colour puzzle's first turn of ``work`` (None: ``colour_turn``): on the puzzles the
    colour dive is for, the dive and the search in turns under the caller's limits (the
    dive's descents take hundreds of nodes; 0036); else the search, at most ``auto_nodes``."""
    from gridsolve.nonogram.engine.colour_dive import colour_dives
    colour = cast(ColourPuzzle, puzzle)
    work = colour_turn(puzzle, policy) if work is None else work
    if colour_dives(colour, policy):
        return engine.analyse_colour(colour, max_solutions, limits, keep_root=keep_root,
                                     work=work, dive=True, policy=policy)
    budget = dataclasses.replace(limits, max_nodes=policy.auto_nodes if limits.max_nodes is None
                                 else min(policy.auto_nodes, limits.max_nodes))
    return engine.analyse_colour(colour, max_solutions, budget, keep_root=keep_root, work=work)


def colour_handover(puzzle: AnyPuzzle, max_solutions: int, limits: SearchLimits, name: str,
                    started: float, encoding: str | None, native: Result,
                    root: engine.ColourRoot, policy: Policy) -> Result:
    """After the colour engine's first turn (``native``): SAT alone, seeded with what its
    ``root`` proved, under what is left of the limits."""
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
    """The colour engine's first turn in line solves: ``colour_dive_work`` on the puzzles the
    colour dive is for (0036), else ``colour_work`` over the puzzle's mean line length (a
    colour line solve costs about its length)."""
    from gridsolve.nonogram.engine.colour_dive import colour_dives
    if colour_dives(cast(ColourPuzzle, puzzle), policy):
        return policy.colour_dive_work
    mean = 2 * puzzle.width * puzzle.height / max(1, puzzle.width + puzzle.height)
    return int(policy.colour_work / max(1.0, mean))


def _pooled(first: Result, then: Result, max_solutions: int) -> Result:
    """``then`` (a search from the start) with ``first``'s solutions pooled in."""
    return repooled(then, then.solutions + first.solutions, max_solutions, then.exhausted)


def _in_turns(team: Team, max_solutions: int, limits: SearchLimits, solver: str,
              started: float, encoding: str | None, implications: bool,
              to_kissat: bool = False) -> Result:
    """The team's first turn, the dive's where it is for, then ``go_on``."""
    policy = team.policy
    deadline = limits.deadline(started)
    if sat_first(team.puzzle, solver, limits, policy):  # a short first turn, then SAT alone (0040)
        if _first_turn(team, max_solutions, limits, policy.first_work_sparse):
            return team.result()
        return go_on(team, max_solutions, limits, solver, started, encoding, implications,
                     alone=True)
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
          report: Callable[[int, Iterable[Grid]], None] | None = None,
          alone: bool = False) -> Result:
    """After the first turns: SAT and the team (and the dive) in turns, or SAT alone (with
    ``alone`` too), to the answer or the limits; ``report`` (``--jobs``' process) is told
    nodes and solutions."""
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
    if sat is None or alone or not sat.abilities(solver).in_turns:  # Kissat, CaDiCaL...
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
    """What the root's probes fixed, as clauses for SAT, unless too many (0035)."""
    from gridsolve.nonogram.backends import cnf
    extra = cnf.implication_clauses(team.root_implications(), known)
    model = cnf.size(team.puzzle, known, encoding=encoding).clauses
    return extra if len(extra) <= team.policy.implication_max_share * model else []


def _first_turn(team: Team, max_solutions: int, limits: SearchLimits, work: int) -> bool:
    """The team's first turn (``auto_nodes`` past the last solution, ``work``; one node past
    ``first_stop`` stops the team for good); True if that ended the search."""
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
    """The dive's first turn where it is for; True if that ended the search."""
    return team.first_dive(limits, deadline)


def _kissat_in_turns(team: Team, max_solutions: int, limits: SearchLimits, left: SearchLimits,
                     known: Grid, encoding: str | None, extra: list[list[int]],
                     found: tuple[Grid, ...], deadline: float | None) -> Result:
    """Kissat's conflict-limited runs and the dive in growing turns on one core (0029, 0034);
    the same Result as ``kissat.analyse``, with the turns in its stats."""
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
    """SAT's work in all by the end of round ``rounds`` (from 1), the native search having had
    ``native`` (the policy's ``sat_share``, or on small puzzles ``sat_share_small`` growing)."""
    if not small:
        return policy.sat_share * native
    return native * min(policy.sat_share_small_max,
                        policy.sat_share_small * policy.sat_share_growth ** (rounds - 1))


def _alone(team: Team, max_solutions: int, limits: SearchLimits, solver: str, started: float,
           known: Grid, encoding: str | None, extra: list[list[int]],
           found: tuple[Grid, ...] | None = None) -> Result:
    """SAT alone after the first turns, seeded as in the turns, for solvers that cannot be
    paused (0016); on the dive's puzzles, Kissat in turns with the dive."""
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
