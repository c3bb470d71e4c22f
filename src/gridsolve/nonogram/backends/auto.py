"""The ``auto`` method: the native engine first, then SAT and the native engine in turns.

The rule: run the native engine (its team of searches, see ``engine.Team``, counting up to
``max_solutions``) for at most ``AUTO_NODES`` search nodes and ``AUTO_SECONDS`` seconds (less
if the caller's own limits are tighter; on puzzles of more than AUTO_SMALL_CELLS cells the
turn pauses after ``AUTO_SECONDS_LARGE``, and on those up to DIVE_MAX_CELLS cells the
team's dive by belief propagation, ``Team.dive``, then has a turn of AUTO_DIVE_FAILS failed
nodes, at most AUTO_DIVE_SECONDS: decision 0028). If it finishes, that is the answer. Otherwise SAT
(``default_solver`` unless named: python-sat's ``sat.DEFAULT_SOLVER``, or Kissat on puzzles
whose every line is long, see below; on ``cnf``'s default model) starts, seeded
with the cells the native engine proved at the root (``Result.partial``: its '#' and '.' are
facts, so they are added as unit clauses) and with what its probes at the root fixed
(``Team.root_implications``: "this cell so, then that cell so", binary clauses true of every
solution), and SAT and the native search take turns, each resuming where it stopped:
SAT until it has had AUTO_SAT_SHARE times the native share in all, native until it has had
twice its last share (large puzzles: native 0.1 s, SAT 2.4 s, native 0.2 s, SAT 4.8 s, ...;
0020; the dive has half the native turn's time after it). On puzzles of at most AUTO_SMALL_CELLS cells SAT's
share starts at AUTO_SAT_SHARE_SMALL instead and doubles each round up to an equal share
(native 1 s, SAT 0.125 s, native 2 s, SAT 0.5 s in all, native 4 s, SAT 2 s, native 8 s,
SAT 8 s, ...; 0018). Solutions are pooled;
when either is exhausted, its solutions are every solution, so the count stays exact.
Puzzles whose engine has no team (colour) keep a single hand-over: native under the
budget (AUTO_SECONDS_COLOUR instead of AUTO_SECONDS), then SAT alone, seeded with what the
colour engine proved at its root (``engine.analyse_colour``: the known cells, the colours
each open cell lost, and what each probe there ruled out, ``cnf.colour_root_clauses``;
decision 0027). So do SAT solvers that cannot be paused (``sat.abilities``: CaDiCaL,
which python-sat cannot interrupt, runs in a child process under a timeout): after the
team's first turn, SAT alone, seeded as in the turns, the team's solutions blocked and
counted (``_alone``).

Why: depth-first search with probing wins the median by ~10x on tournament puzzles, clause
learning wins most of the worst cases, but not all. The measurements behind the budget and
the shares: docs/decisions/0004-auto-native-first.md, 0005-auto-turns.md and 0018; the
model, the solver, the root's implications and the shorter first turn on large puzzles: 0013
and 0017.

Kissat (``kissat``, a program that cannot be paused): on black-and-white puzzles whose every
line has KISSAT_MIN_LINE cells or more, with Kissat installed (``default_solver``), or when
named, the team's first turn is followed by a single hand-over to Kissat, seeded the same
way (docs/decisions/0016). On those the dive is for (``dives``), without a node limit, the
dive then takes turns with Kissat on one core (``KissatTurns``: Kissat is stopped during
the dive's turns; AUTO_DIVE_TURN seconds each at first, each pair twice the last; 0029).
On puzzles of at most AUTO_SMALL_CELLS cells still open after a
first turn of AUTO_SECONDS_TO_KISSAT and AUTO_KISSAT_AFTER_ROUNDS rounds of turns (none),
Kissat (installed, no solver named, no node limit) takes over alone with the solutions so
far pooled and blocked (0019, 0021). Neither when counting to more than
PROGRAM_MAX_SOLUTIONS: Kissat starts anew for each solution, python-sat's solver goes on.

SAT comes in only when its model fits (``sat_fits``): its size is counted from the clues
before it is built (``cnf.size``; the block-start model's order clauses grow with the square
of a line's slack, so a random 300x300 puzzle's model has about 10^8 literals; the order
model grows linearly), and it must fit
AUTO_SAT_MEMORY_SHARE of the memory limit (AUTO_SAT_MEMORY without one) and, under a
timeout, be built within AUTO_BUILD_SHARE of the time left at AUTO_BUILD_RATE. Otherwise the
native search goes on alone under the caller's limits. The build itself stops at the
deadline too.

With python-sat missing (and Kissat not taken), auto is the native engine under the caller's
limits alone. A caller's
``max_nodes`` caps native nodes and SAT conflicts together (SAT checks its budget at its own
pace); ``nodes`` is native nodes plus SAT conflicts.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from types import ModuleType

from gridsolve.errors import LimitReached, SolverUnavailable
from gridsolve.nonogram import engine
from gridsolve.nonogram.engine import (Result, SearchLimits, Team, least, passed, repooled,
                                       seconds_left, settled)
from gridsolve.nonogram.engine.nearby import moves_for_count
from gridsolve.nonogram.engine.team import (DIVE_FIRST_FAILS, DIVE_FIRST_SECONDS, dives,
                                            team_for)
from gridsolve.nonogram.backends._common import (DEFAULT_SOLVER, KISSAT, KISSAT_MIN_LINE,
                                                 sat_installed)
from gridsolve.nonogram.model import AnyPuzzle, ColourPuzzle, Grid, Puzzle

__all__ = ["AUTO_NODES", "PROGRAM_MAX_SOLUTIONS", "AUTO_SECONDS", "AUTO_SECONDS_LARGE",
           "AUTO_SECONDS_COLOUR", "AUTO_DIVE_SECONDS", "AUTO_DIVE_FAILS", "AUTO_DIVE_TURN",
           "AUTO_SAT_SHARE",
           "AUTO_SAT_SHARE_SMALL", "AUTO_SAT_SHARE_GROWTH", "AUTO_SAT_SHARE_SMALL_MAX",
           "AUTO_KISSAT_AFTER_ROUNDS", "AUTO_SECONDS_TO_KISSAT", "AUTO_SMALL_CELLS", "AUTO_SAT_MEMORY",
           "AUTO_SAT_MEMORY_SHARE",
           "AUTO_BUILD_RATE", "AUTO_BUILD_SHARE", "default_solver", "sat_fits", "sat_seconds",
           "dives", "dive_first", "go_on", "KissatTurns",
           "small_for_kissat", "check_named", "analyse"]

#: Native search nodes before handing over to SAT.
AUTO_NODES = 2000
#: Counting to more solutions than this, the first turn's AUTO_NODES count from the last
#: solution the native search reached (found first by it or by local moves), not from its
#: start: a search reaching solutions one after another is not stuck, and SAT's turns
#: (python-sat, a blocking clause per solution) only slowed it. 12 random 12x12 and 15x15
#: and seven rooks, counted to 5,000, median of 5 rounds: 1.47 s against 2.10 s before,
#: native alone 1.35 s.
AUTO_COUNT_FROM = 64
#: Counting to more solutions than this, SAT's side is python-sat's solver, which goes on
#: from one solution to the next, never Kissat or glucose-syrup: a program starts anew for
#: each solution with those so far blocked, which does not scale to counts (7 rooks, 5,040
#: solutions: 166 Kissat runs in 20 s, 4,361 found; the native team alone takes 0.13 s).
PROGRAM_MAX_SOLUTIONS = 16
#: Native seconds before handing over to SAT.
AUTO_SECONDS = 1.0
#: The same on puzzles of more than AUTO_SMALL_CELLS cells, in turns with SAT: there the
#: native search rarely ends after its first moments, and SAT with the order model seldom
#: needs long (docs/decisions/0013; 0.25 s until 0017).
AUTO_SECONDS_LARGE = 0.1
#: After the team's first turn on a puzzle the dive is for (``dives``: more than
#: AUTO_SMALL_CELLS cells and at most DIVE_MAX_CELLS), the dive (``Team.dive``: branching by
#: belief propagation) has a turn of up to this many seconds and AUTO_DIVE_FAILS failed nodes
#: before SAT's: the engine's own first dive (``Team.first_dive``, where the reasons are).
AUTO_DIVE_SECONDS = DIVE_FIRST_SECONDS
AUTO_DIVE_FAILS = DIVE_FIRST_FAILS
#: Where auto then runs Kissat alone on a puzzle the dive is for (``dives``), without a node
#: limit, Kissat and the dive take turns on one core (``KissatTurns``): Kissat this many
#: seconds, then the dive as long, each pair of turns twice the last. With restarts the
#: dive's first solutions come at random times (random 70x70 and 100x100: 1 s on some,
#: over 60 s on others) and Kissat's at others, so neither search waits for the other
#: (docs/decisions/0029).
AUTO_DIVE_TURN = 1.0
#: Native seconds before a colour puzzle, which has a single hand-over, goes to SAT: a colour
#: puzzle the native engine has not ended in 0.2 s is one SAT ends as fast or faster, and the
#: native engine never resumes (docs/decisions/0026; was AUTO_SECONDS). Random 30x30
#: 3-colour puzzles at 50% background end natively within 0.14 s.
AUTO_SECONDS_COLOUR = 0.2
#: In the turns on puzzles over AUTO_SMALL_CELLS cells, SAT's time to the native search's
#: (native 0.1 s, SAT 2.4 s, native 0.2 s, SAT 4.8 s, ...): the native search's later turns
#: there rarely end a puzzle, so they get a 25th of the time (decision 0020; was 6).
AUTO_SAT_SHARE = 24.0

#: SAT's share on puzzles of at most AUTO_SMALL_CELLS cells, where the native search is stronger.
AUTO_SAT_SHARE_SMALL = 0.125

#: Each round doubles the small puzzles' SAT share, up to an equal share: a small puzzle the
#: native search has not ended in its first seconds is often one it cannot end at all, and
#: SAT finds its first solution in seconds (decision 0018: tournament puzzles that took
#: auto 30-50 s).
AUTO_SAT_SHARE_GROWTH = 2.0
AUTO_SAT_SHARE_SMALL_MAX = 1.0

#: On puzzles of at most AUTO_SMALL_CELLS cells still open after this many rounds of turns,
#: Kissat takes over alone when it is installed and no solver was named (decision 0019; 0:
#: right after the first native turn, decision 0021).
AUTO_KISSAT_AFTER_ROUNDS = 0
#: The first native turn on those puzzles when Kissat can take over (instead of
#: AUTO_SECONDS): a small puzzle the native search has not ended in 0.5 s is most often one
#: it will not end in seconds, and Kissat will (decision 0021).
AUTO_SECONDS_TO_KISSAT = 0.5

#: Puzzles up to this many cells take AUTO_SAT_SHARE_SMALL: those the engine's implication
#: probing covers (NG_IMPL_MAX_CELLS in core.h, 1024).
AUTO_SMALL_CELLS = engine.IMPLICATION_MAX_CELLS

#: Bytes a SAT model may take without a memory limit.
AUTO_SAT_MEMORY = 2**30
#: The share of a memory limit a SAT model may take (the solver's learned clauses grow too).
AUTO_SAT_MEMORY_SHARE = 0.5
#: Literals per second a SAT model is built and loaded at: a little under what was measured
#: (random 50x50 and 100x100: 0.6-1.0 million a second, the other core busy).
AUTO_BUILD_RATE = 500_000
#: Under a timeout, SAT comes in only if its model is built within this share of the time left.
AUTO_BUILD_SHARE = 0.5


def _sat_memory(limits: SearchLimits) -> int:
    """The bytes SAT's models may take: AUTO_SAT_MEMORY_SHARE of the memory limit, or
    AUTO_SAT_MEMORY without one."""
    return (AUTO_SAT_MEMORY if limits.max_memory is None
            else int(limits.max_memory * AUTO_SAT_MEMORY_SHARE))


def models_that_fit(puzzle: AnyPuzzle, known: Grid | None, limits: SearchLimits,
                    most: int, encoding: str | None = None, overhead: int = 0) -> int:
    """How many copies of the puzzle's SAT model (one per SAT process or thread, each taking
    ``overhead`` bytes more) fit the memory ``sat_fits`` allows one, up to ``most`` (at
    least 1: ``sat_fits`` decides about one)."""
    from gridsolve.nonogram.backends import sat
    memory = _sat_memory(limits)
    size = sat.model_size(puzzle, known, memory, encoding)
    return max(1, min(most, memory // max(1, sat.model_bytes(size) + overhead)))


def sat_fits(puzzle: AnyPuzzle, known: Grid | None, limits: SearchLimits,
             deadline: float | None, encoding: str | None = None, binary: int = 0) -> str:
    """'' if the puzzle's SAT model (with ``binary`` extra binary clauses) fits the memory
    and the time left, else why not."""
    from gridsolve.nonogram.backends import cnf, sat
    memory = _sat_memory(limits)
    most = memory // sat.MODEL_BYTES_PER_LITERAL
    left = seconds_left(deadline)
    if left is not None:
        most = min(most, int(left * AUTO_BUILD_SHARE * AUTO_BUILD_RATE))
    size = cnf.size(puzzle, known, stop_at=most, encoding=encoding)
    size = dataclasses.replace(size, clauses=size.clauses + binary,
                               literals=size.literals + 2 * binary)
    if sat.model_bytes(size) > memory:
        return "memory"
    if size.literals > most:
        return "time"
    return ""


def default_solver(puzzle: AnyPuzzle, max_solutions: int = 2) -> str:
    """SAT's solver unless one is named: Kissat where ``kissat.prefer`` says (a
    black-and-white puzzle whose every line has KISSAT_MIN_LINE cells or more, Kissat
    installed) and at most PROGRAM_MAX_SOLUTIONS are asked, else DEFAULT_SOLVER. (A smaller
    puzzle does not import the Kissat backend.)"""
    if (min(puzzle.width, puzzle.height) >= KISSAT_MIN_LINE
            and max_solutions <= PROGRAM_MAX_SOLUTIONS):
        from gridsolve.nonogram.backends import kissat
        if kissat.prefer(puzzle):
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
                     max_solutions: int = 2) -> bool:
    """Does this puzzle, if still open after its first native turn, go to Kissat (0019,
    0021): black and white, at most AUTO_SMALL_CELLS cells, no solver named, no node limit,
    at most PROGRAM_MAX_SOLUTIONS asked? Whether Kissat is installed is asked only then (its
    import costs ~20 ms)."""
    return (solver is None and limits.max_nodes is None and isinstance(puzzle, Puzzle)
            and puzzle.width * puzzle.height <= AUTO_SMALL_CELLS
            and max_solutions <= PROGRAM_MAX_SOLUTIONS)


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
            implications: bool = True) -> Result:
    """Native under the auto budget, then SAT seeded with the native root grid: in turns with
    the native search (black and white, a SAT solver that can be interrupted), else alone.
    ``solver`` and ``encoding`` name SAT's solver and CNF model (defaults: ``default_solver``,
    ``cnf.encoding_for``); with ``implications``, what the native probes at the root fixed goes
    to SAT too, as binary clauses (``cnf.implication_clauses``; colour: the colours open cells
    lost as units too, ``cnf.colour_root_clauses``)."""
    started = time.perf_counter()
    name = solver or default_solver(puzzle, max_solutions)
    if name != KISSAT and not sat_installed():
        return engine.analyse(puzzle, max_solutions, limits)
    check_named(solver, limits)
    deadline = limits.deadline(started)
    if puzzle.width * puzzle.height > AUTO_SMALL_CELLS:
        # a model that cannot fit after the first native turn: native alone from the start
        # (a first turn stopped by its time limit could not go on)
        turn = AUTO_SECONDS_COLOUR if isinstance(puzzle, ColourPuzzle) else AUTO_SECONDS
        why = sat_fits(puzzle, None, limits, None if deadline is None else deadline - turn,
                       encoding)
        if why:
            return _skipped(engine.analyse(puzzle, max_solutions, limits), why, started)
    team = team_for(puzzle, max_solutions)
    if team is not None:
        return _in_turns(team, max_solutions, limits, name, started, encoding, implications,
                         to_kissat=small_for_kissat(puzzle, solver, limits, max_solutions))
    assert isinstance(puzzle, ColourPuzzle)  # (every black-and-white puzzle has a team)
    budget = SearchLimits(max_nodes=int(least(AUTO_NODES, limits.max_nodes)),  # type: ignore[arg-type]
                          timeout=least(AUTO_SECONDS_COLOUR, limits.timeout))
    native, root = engine.analyse_colour(puzzle, max_solutions, budget, keep_root=implications)
    if settled(native, max_solutions):  # (stopped after two or more: "multiple", not settled)
        return native
    sat = None
    if name != KISSAT:
        sat = _sat()
        if sat is None:  # installed but broken: the native engine alone
            return engine.analyse(puzzle, max_solutions, limits)
    from gridsolve.nonogram.backends import cnf
    # (made before the time left is taken: at the engine's cap, 2 MiB of records, ~0.2 s)
    extra = cnf.colour_root_clauses(puzzle, root.masks, root.implications)
    spent = time.perf_counter() - started
    left_nodes = None if limits.max_nodes is None else limits.max_nodes - native.nodes
    left_time = None if limits.timeout is None else limits.timeout - spent
    if (left_nodes is not None and left_nodes <= 0) or (left_time is not None and left_time <= 0):
        return native
    why = sat_fits(puzzle, native.partial, limits, deadline, encoding, len(extra))
    if why:  # native alone again, under what is left of the caller's limits
        again = _pooled(native, engine.analyse(puzzle, max_solutions, dataclasses.replace(
            limits, max_nodes=left_nodes, timeout=left_time)), max_solutions)
        return _skipped(dataclasses.replace(again, nodes=native.nodes + again.nodes), why,
                        started)
    left = SearchLimits(left_nodes, left_time, limits.max_memory)
    if sat is None:  # Kissat
        from gridsolve.nonogram.backends import kissat
        answer = kissat.analyse(puzzle, max_solutions, left, known=native.partial,
                                encoding=encoding, extra=extra)
    else:
        answer = sat.analyse(puzzle, max_solutions, left, solver=name, known=native.partial,
                             encoding=encoding, extra=extra)
    answer = _pooled(native, answer, max_solutions)
    stats = {"native_nodes": native.nodes, "handover": 1,
             **{f"sat_{k}": v for k, v in answer.stats.items()}}
    return Result(answer.status, answer.solutions, native.nodes + answer.nodes,
                  time.perf_counter() - started, native.partial, stats,
                  exhausted=answer.exhausted)


def _pooled(first: Result, then: Result, max_solutions: int) -> Result:
    """``then`` (a search from the start) with the solutions ``first`` found before it stopped
    (a first turn can stop with several: "multiple", not settled) pooled in; exhausted only
    if ``then`` was (its solutions are then every solution)."""
    return repooled(then, then.solutions + first.solutions, max_solutions, then.exhausted)


def _in_turns(team: Team, max_solutions: int, limits: SearchLimits, solver: str,
              started: float, encoding: str | None, implications: bool,
              to_kissat: bool = False) -> Result:
    """The native team for AUTO_NODES / AUTO_SECONDS (larger puzzles: AUTO_SECONDS_LARGE);
    then SAT and the native team in turns, each resuming where it stopped: SAT until it has
    had AUTO_SAT_SHARE (puzzles of at most AUTO_SMALL_CELLS cells: AUTO_SAT_SHARE_SMALL) times
    the native search's share, the native search until it has had twice its last share
    (native 0.1 s, SAT 2.4 s, native 0.2 s, SAT 4.8 s, ...; small: ``sat_seconds``, native
    1 s, SAT 0.125 s, native 2 s, SAT 0.5 s, native 4 s, SAT 2 s, native 8 s, SAT 8 s, ...).
    Solutions
    are pooled; when either search is exhausted its solutions are every solution, so the
    count stays exact."""
    puzzle = team.puzzle
    deadline = limits.deadline(started)
    small = puzzle.width * puzzle.height <= AUTO_SMALL_CELLS
    # small puzzles Kissat may take (``small_for_kissat``, 0019) get a shorter first turn
    # (0021); whether Kissat is installed is asked only if they are still open then
    first_seconds = (AUTO_SECONDS_TO_KISSAT if to_kissat else AUTO_SECONDS) if small \
        else AUTO_SECONDS_LARGE
    # The first turn pauses between slices of nodes once first_seconds are up; the hard limit
    # of twice AUTO_SECONDS only stops puzzles whose nodes are too slow to slice (one settled node of
    # Gettys, 99x59, takes seconds): SAT alone goes on with them.
    timeout = least(2 * AUTO_SECONDS, limits.timeout)
    # (its first slice is one node, which gives the speed the later slices are sized by)
    if _first_turn(team, max_solutions, limits, timeout, least(started + first_seconds, deadline)):
        return team.result()
    if to_kissat and not _kissat_installed():  # no Kissat: the whole first turn, then turns
        to_kissat, first_seconds = False, AUTO_SECONDS
        if _first_turn(team, max_solutions, limits, timeout,
                       least(started + first_seconds, deadline)):
            return team.result()
    if dive_first(team, limits, deadline):
        return team.result()
    return go_on(team, max_solutions, limits, solver, started, encoding, implications,
                 first_seconds, to_kissat)


def go_on(team: Team, max_solutions: int, limits: SearchLimits, solver: str, started: float,
          encoding: str | None = None, implications: bool = True,
          first_seconds: float = AUTO_SECONDS_LARGE, to_kissat: bool = False,
          report: Callable[[int, Iterable[Grid]], None] | None = None) -> Result:
    """``_in_turns`` after the team's first turn (``first_seconds`` long) and the dive's
    (``dive_first``): SAT and the team in turns, or SAT alone, to the answer or the limits
    (counted from ``started``). ``parallel`` runs it in a process of its own (``--jobs``),
    which ``report`` tells the nodes so far and the solutions pooled so far after each of
    SAT's solutions and each turn."""
    puzzle = team.puzzle
    deadline = limits.deadline(started)
    small = puzzle.width * puzzle.height <= AUTO_SMALL_CELLS
    if passed(deadline):
        # the time is up: building the SAT model would overrun it
        return dataclasses.replace(team.result(), seconds=time.perf_counter() - started)
    sat = None
    if solver != KISSAT:
        sat = _sat()
        if sat is None:  # installed but broken: the native engine alone (and its dive)
            team.solve(limits)
            return team.result()
    why = sat_fits(puzzle, team.partial(), limits, deadline, encoding)
    if why:  # the native engine alone, under the caller's limits (if it can go on)
        team.solve(limits)
        return _skipped(team.result(), why, started)
    # the model is built up to the deadline at most (it fits: no memory limit again)
    from gridsolve.nonogram.backends import cnf
    known = team.partial()
    extra = cnf.implication_clauses(team.root_implications(), known) if implications else []
    if sat is None or not sat.abilities(solver).in_turns:  # Kissat, CaDiCaL...
        return _alone(team, max_solutions, limits, solver, started, known, encoding, extra)
    search = sat.Search(puzzle, SearchLimits(timeout=limits.timeout), solver, known, started,
                        encoding, extra)
    found: dict[Grid, None] = dict(team.found)  # solutions of both, pooled

    def tell() -> None:
        if report is not None:
            report(team.nodes() + search.conflicts(), found)
    complete = False
    rounds = 0
    moved = 0  # solutions found next to SAT's by local moves
    # small puzzles still open after AUTO_KISSAT_AFTER_ROUNDS rounds go to Kissat (0019, 0021)
    kissat_after = AUTO_KISSAT_AFTER_ROUNDS if to_kissat else None
    switch = False
    try:
        share = first_seconds
        while not complete and len(found) < max_solutions:
            rounds += 1
            now = time.perf_counter()
            if deadline is not None and now >= deadline:
                break
            if kissat_after is not None and rounds > kissat_after:
                switch = True
                break
            # SAT up to sat_share times the native share in all
            spent_nodes = team.nodes() + search.conflicts()
            if limits.max_nodes is not None:
                if spent_nodes >= limits.max_nodes:
                    break
                search.max_conflicts = search.conflicts() + limits.max_nodes - spent_nodes
            search.deadline = deadline if team.stopped else least(
                now + max(0.0, sat_seconds(share, rounds, small) - search.seconds), deadline)
            while len(found) < max_solutions:
                answer = search.step()
                if answer is None:
                    break
                if answer is False:  # SAT found every solution (the native ones too)
                    complete = True
                    break
                if answer not in found:  # and its neighbours by local moves (engine.nearby)
                    found[answer] = None
                    for other in moves_for_count(puzzle, answer, found, max_solutions,
                                                 deadline):
                        found[other] = None
                        moved += 1
                    tell()
            tell()
            if complete or len(found) >= max_solutions:
                break
            if team.stopped:  # the native search cannot go on: SAT had all the time left
                break
            # the native team up to twice its last share in all (its first turn counts)
            share *= 2
            now = time.perf_counter()
            native_limits = SearchLimits(max_nodes=None if limits.max_nodes is None
                                         else limits.max_nodes - search.conflicts(),
                                         timeout=limits.timeout)
            team.run(native_limits, until=least(now + max(0.0, share - team.seconds),
                                                   deadline))
            if dives(puzzle) and not team.done():  # the dive: half the team's time
                now = time.perf_counter()
                team.dive(native_limits, until=least(now + share / 2, deadline))
            found.update(team.found)
            complete = team.complete  # then team.found is every solution
            tell()
            if team.stopped:
                break
    finally:
        sat_stats = search.stats()
        search.close()
    if switch:
        answer = _alone(team, max_solutions, limits, KISSAT, started, known, encoding, extra,
                        found=tuple(found))
        return dataclasses.replace(answer, nodes=answer.nodes + sat_stats.get("conflicts", 0),
                                   stats={**answer.stats, "rounds": rounds,
                                          "nearby": answer.stats["nearby"] + moved,
                                          "glucose_conflicts": sat_stats.get("conflicts", 0)})
    solutions = tuple(found)[:max_solutions]
    native_stats = team.stats()
    stats = {"native_nodes": native_stats["nodes"], "handover": 1, "rounds": rounds,
             "nearby": native_stats["nearby"] + moved,
             **{k: v for k, v in native_stats.items() if k.startswith("dive_")},
             **{f"sat_{k}": v for k, v in sat_stats.items()}}
    return Result.of_count(solutions, max_solutions, complete,
                           native_stats["nodes"] + sat_stats.get("conflicts", 0),
                           time.perf_counter() - started, team.partial(), stats)



def _first_turn(team: Team, max_solutions: int, limits: SearchLimits, timeout: float | None,
                until: float | None) -> bool:
    """The native team's first turn, up to AUTO_NODES nodes (counting past AUTO_COUNT_FROM
    solutions: AUTO_NODES past the last solution it reached) within ``timeout`` and
    ``until``; True if that ended the search (it was not stopped)."""
    cap = AUTO_NODES
    while True:
        turn = SearchLimits(max_nodes=int(least(cap, limits.max_nodes)),  # type: ignore[arg-type]
                            timeout=timeout)
        if team.run(turn, until=until):
            return not team.stopped
        if (max_solutions <= AUTO_COUNT_FROM or team.reached + AUTO_NODES <= cap
                or team.stopped or passed(until) or team.nodes() < cap):
            return False
        cap = team.reached + AUTO_NODES


def dive_first(team: Team, limits: SearchLimits, deadline: float | None) -> bool:
    """The dive's first turn after the team's (``AUTO_DIVE_SECONDS``, ``AUTO_DIVE_FAILS``) on
    the puzzles it is for (``dives``); True if that ended the search."""
    return team.first_dive(limits, deadline, AUTO_DIVE_SECONDS, AUTO_DIVE_FAILS)


class KissatTurns:
    """The dive's turns beside Kissat's runs (``_program.Turns``): Kissat AUTO_DIVE_TURN
    seconds, the dive as long (``Team.dive``, going on where it stopped: its restarts, then
    local moves next to its solutions), and each pair twice the last, until the deadline."""

    def __init__(self, team: Team, limits: SearchLimits, deadline: float | None) -> None:
        self.team, self.limits, self.deadline = team, limits, deadline
        self.share = AUTO_DIVE_TURN
        self.end: float | None = None  # the end of Kissat's turn, from its first look
        self.turns = 0

    def until(self) -> float | None:
        if self.end is None:
            self.end = time.perf_counter() + self.share
        return self.end

    def other(self) -> bool:
        self.team.dive(self.limits, least(time.perf_counter() + self.share, self.deadline))
        self.turns += 1
        self.share *= 2
        self.end = None
        return self.team.done() or self.team.stopped


def _kissat_in_turns(team: Team, max_solutions: int, limits: SearchLimits, left: SearchLimits,
                     known: Grid, encoding: str | None, extra: list[list[int]],
                     found: tuple[Grid, ...], deadline: float | None) -> Result:
    """Kissat's search (``kissat.solutions``, seeded as ``_alone`` says, under ``left``: what
    is left of the caller's ``limits``) in turns with the dive (``KissatTurns``, under
    ``limits``, which it counts from the team's start; no node limit: the turns share the
    clock). The solutions are pooled in the team's; when either search is exhausted, they
    are every solution. The same Result as ``kissat.analyse``, with the dive's turns in its
    stats."""
    from gridsolve.nonogram.backends import kissat
    started = time.perf_counter()
    turns = KissatTurns(team, limits, deadline)
    stats: dict[str, int] = {}
    team.found.update(dict.fromkeys(found))
    complete = False
    grids = kissat.solutions(team.puzzle, left, known=known, encoding=encoding, extra=extra,
                             found=tuple(team.found), stats=stats, turns=turns)
    try:
        for grid in grids:
            team.found[grid] = None
            if team.done():
                break
        else:
            complete = True
    except kissat.OutOfMemory:
        raise
    except LimitReached:
        pass
    stats["dive_turns"] = turns.turns
    return Result.of_count(tuple(team.found)[:max_solutions], max_solutions,
                           complete or team.complete, stats.get("conflicts", 0),
                           time.perf_counter() - started, known, stats)


def sat_seconds(native: float, rounds: int, small: bool) -> float:
    """SAT's time in all by the end of its turn in round ``rounds`` (from 1), when the native
    search has had ``native`` seconds: AUTO_SAT_SHARE times that, or on small puzzles
    AUTO_SAT_SHARE_SMALL times, doubling each round up to AUTO_SAT_SHARE_SMALL_MAX."""
    if not small:
        return AUTO_SAT_SHARE * native
    return native * min(AUTO_SAT_SHARE_SMALL_MAX,
                        AUTO_SAT_SHARE_SMALL * AUTO_SAT_SHARE_GROWTH ** (rounds - 1))


def _alone(team: Team, max_solutions: int, limits: SearchLimits, solver: str, started: float,
           known: Grid, encoding: str | None, extra: list[list[int]],
           found: tuple[Grid, ...] | None = None) -> Result:
    """After the team's first turn, SAT alone for the rest of the limits, seeded as in the
    turns (the root's cells and implications; the team's solutions blocked and counted): for
    solvers whose run cannot be paused (Kissat, a program; python-sat's CaDiCaL and others it
    cannot interrupt, run in a child process). The native team does not go on (where auto
    takes Kissat, the native search's lines are past its one-word bit-parallel solver, and on
    random 70x70 it ended none that Kissat did not end sooner; 0016)."""
    from gridsolve.nonogram.backends import cnf
    puzzle = team.puzzle
    deadline = limits.deadline(started)
    left = SearchLimits(
        max_nodes=None if limits.max_nodes is None else max(0, limits.max_nodes - team.nodes()),
        timeout=seconds_left(deadline), max_memory=limits.max_memory)
    found = tuple(team.found if found is None else found)[:max_solutions]
    if len(found) >= max_solutions:  # the first turn found enough before it was stopped
        return dataclasses.replace(team.result(), seconds=time.perf_counter() - started)
    if solver == KISSAT and dives(puzzle) and limits.max_nodes is None and not team.stopped:
        answer = _kissat_in_turns(team, max_solutions, limits, left, known, encoding, extra,
                                  found, deadline)
    elif solver == KISSAT:
        from gridsolve.nonogram.backends import kissat
        answer = kissat.analyse(puzzle, max_solutions, left, known=known, encoding=encoding,
                                extra=extra, found=found)
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
