"""SAT backend: a CNF model of a nonogram (``cnf``: block starts or their order) solved with
python-sat.

The solver is loaded clause by clause as ``cnf.clauses`` makes them, so a deadline stops the
build too, and the model's size is counted first (``cnf.size``): a model that would not fit
the memory limit is refused before anything is built.

Counting adds a blocking clause on the cell variables after each model: cells determine every
start, so each solution is found once. A node limit is a budget of conflicts, which the
solvers check at their restarts, so a search may run up to a few hundred conflicts past it
(Glucose: about 100 conflicts between its first restarts); ``nodes`` reports the conflicts
actually run. A timeout is a timer calling ``interrupt()``, except for the solvers whose
``interrupt()`` python-sat refuses (CaDiCaL, Kissat 4.0.4, Lingeling; ``abilities`` asks each
solver once): they run in a child process that is killed at the deadline, sending solutions
as it finds them, with its address space capped at the memory limit. (CaDiCaL also slows
down badly when cut into ``solve_limited`` slices, PERF-NOTES.md: 9-Dom 0.14 s -> 0.78 s.)
A solver without a limited solve (Lingeling) cannot take a node limit: asked for one, it is
a clear error, not a search that ignores it.
"""

from __future__ import annotations

import functools
import itertools
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from multiprocessing.connection import Connection
from dataclasses import dataclass
from typing import Any, Literal, cast

from gridsolve.errors import GridsolveError, LimitReached, SolverUnavailable
from gridsolve.nonogram.backends import cnf
from gridsolve.nonogram.backends._common import (DEFAULT_SOLVER, KISSAT, checked,
                                                 grid_from_cells, unknown_grid)
from gridsolve.nonogram.engine import Result, SearchLimits, passed
from gridsolve.nonogram.model import UNKNOWN, AnyPuzzle, Grid, Puzzle
from gridsolve.interrupt import watch
from gridsolve.workers import die_with_parent

__all__ = ["DEFAULT_SOLVER", "Abilities", "abilities", "check_solver", "Search", "require",
           "encode", "model_bytes", "check_memory", "analyse"]

#: A loaded solver's memory per literal and per clause of the model, and at least (measured
#: on random puzzles of 50x50 to 200x200, resident memory after loading less before:
#: Glucose 4 about 17 bytes per literal with 5 literals a clause, CaDiCaL 1.9.5 about 21).
MODEL_BYTES_PER_LITERAL = 24
MODEL_BYTES_PER_CLAUSE = 32
MODEL_BYTES_BASE = 16 * 2**20
#: While a model is loaded, the clock is checked after each this many literals.
LOAD_CHECK_LITERALS = 20_000
#: What python-sat raises when its own SIGINT handler caught Ctrl-C during a solve.
PYSAT_CTRL_C = "Caught keyboard interrupt"


def _pysat() -> Any:
    """Import python-sat lazily; a missing package names the extra to install."""
    try:
        import pysat.solvers  # type: ignore[import-untyped]
    except ImportError:
        raise SolverUnavailable("python-sat", "sat") from None
    return pysat


def require() -> None:
    """Raise SolverUnavailable (naming the extra) unless python-sat can be imported."""
    _pysat()


def encode(puzzle: AnyPuzzle, known: Grid | None = None,
           encoding: str | None = None) -> list[list[int]]:
    """The CNF of the puzzle as a list (plus unit clauses for the known cells of ``known``);
    see ``cnf`` for the models. Solvers load it clause by clause instead (``Search``)."""
    return list(cnf.clauses(puzzle, known, encoding))


def model_bytes(size: cnf.ModelSize) -> int:
    """The memory a loaded SAT solver takes for a model of this size, a little over what was
    measured with Glucose 4 and CaDiCaL 1.9.5 (see MODEL_BYTES_PER_LITERAL)."""
    return (size.literals * MODEL_BYTES_PER_LITERAL + size.clauses * MODEL_BYTES_PER_CLAUSE
            + MODEL_BYTES_BASE)


def model_size(puzzle: AnyPuzzle, known: Grid | None, max_memory: int | None,
               encoding: str | None = None, deadline: float | None = None) -> cnf.ModelSize:
    """The size of the puzzle's model, counted until it is sure not to fit ``max_memory``
    (or until the ``deadline``: then the count is short, and the model is not built)."""
    stop_at = None if max_memory is None else max_memory // MODEL_BYTES_PER_LITERAL
    return cnf.size(puzzle, known, stop_at, encoding, deadline)


def check_memory(puzzle: AnyPuzzle, known: Grid | None, max_memory: int | None,
                 encoding: str | None = None, deadline: float | None = None) -> cnf.ModelSize:
    """The model's size; LimitReached if it would not fit ``max_memory`` bytes (counted up
    to the ``deadline``, as ``model_size``)."""
    size = model_size(puzzle, known, max_memory, encoding, deadline)
    need = model_bytes(size)
    if max_memory is not None and need > max_memory:
        # the count stops once the model cannot fit: then it says "more than"
        about = "more than" if size.literals > max_memory // MODEL_BYTES_PER_LITERAL else "about"
        raise LimitReached(
            f"the SAT model of this {puzzle.width}x{puzzle.height} puzzle needs {about} "
            f"{_mb(need)} ({size.literals:,} literals), over the memory limit of "
            f"{_mb(max_memory)}").with_remedy("max_memory")
    return size


def _mb(n: int) -> str:
    return f"{n / 2**20:,.0f} MB"


def _grid(puzzle: AnyPuzzle, cells: list[int]) -> Grid:
    """The grid of a model's cell literals (numbered first by ``encode``)."""
    colour = cnf.colour_of(puzzle)
    if colour is None:
        return grid_from_cells(cast(Puzzle, puzzle), [v > 0 for v in cells])
    k, w = len(colour.palette), puzzle.width
    symbols = [next((colour.palette[v].symbol for v in range(k) if cells[i * k + v] > 0),
                    UNKNOWN) for i in range(w * puzzle.height)]
    return tuple("".join(symbols[i:i + w]) for i in range(0, len(symbols), w))


@dataclass(frozen=True)
class Abilities:
    """What python-sat lets this program do with one of its solvers."""

    interrupt: bool  # a timer can stop a solve in this process (else: a child process)
    limited: bool  # a solve can stop after a budget of conflicts (a node limit)
    stats: bool  # it reports its conflicts

    @property
    def in_turns(self) -> bool:
        """Can it be stopped and resumed in this process (auto's turns, ``Search.step``)?"""
        return self.interrupt and self.limited


#: python-sat solvers that cannot take clauses after a solve (their library aborts the
#: process), so they cannot go past a first solution: no count, no proof of uniqueness.
NOT_INCREMENTAL = frozenset({"kissat404"})


@functools.cache
def abilities(name: str) -> Abilities:
    """Ask the solver (a tiny one, once per process): python-sat raises NotImplementedError
    for what a binding lacks (Kissat 4.0.4: interrupt and statistics; Lingeling: limited
    solves). An unknown name, or a solver python-sat cannot load, is a clear error."""
    solver = _solver(name)
    try:
        solver.add_clause([1, 2])  # MapleSAT crashes solving an empty formula
        can = {}
        for ability, call in (("interrupt", lambda: (solver.interrupt(),
                                                     solver.clear_interrupt())),
                              ("limited", lambda: (solver.conf_budget(1),
                                                   solver.solve_limited())),
                              ("stats", solver.accum_stats)):
            try:
                call()
                can[ability] = True
            except NotImplementedError:
                can[ability] = False
        return Abilities(**can)
    finally:
        solver.delete()


def _solver(name: str) -> Any:
    """An empty python-sat solver (an unknown name or one python-sat cannot load is a clear
    error)."""
    pysat = _pysat()
    if name not in vars(pysat.solvers.SolverNames):
        raise GridsolveError(f"unknown SAT solver {name!r}; python-sat has: "
                             + ", ".join(sorted(k for k in vars(pysat.solvers.SolverNames)
                                                if not k.startswith("_")))
                             + f"; or {KISSAT} (the program)")
    try:
        return pysat.solvers.Solver(name=name)
    except (pysat.solvers.NoSuchSolverError, AssertionError, ImportError) as exc:
        # e.g. cryptosat without the pycryptosat package
        why = ("a package it needs is missing" if isinstance(exc, pysat.solvers.NoSuchSolverError)
               else str(exc).strip() or type(exc).__name__)
        raise GridsolveError(f"python-sat cannot load the SAT solver {name!r} here ({why}); "
                             f"name another, e.g. {DEFAULT_SOLVER}") from None


def check_solver(name: str, limits: SearchLimits) -> Abilities:
    """The solver's abilities; a node limit it cannot hold is a clear error."""
    if name in NOT_INCREMENTAL:
        raise GridsolveError(f"python-sat's {name!r} cannot go on after a first solution (it "
                             f"is not incremental), so it cannot count; name {KISSAT!r} for "
                             "the Kissat program instead (extra 'kissat')")
    can = abilities(name)
    # a budget needs the conflicts so far too, or it would be the whole limit per solution
    if limits.max_nodes is not None and not (can.limited and can.stats):
        raise GridsolveError(f"the SAT solver {name!r} cannot stop at a node limit in "
                             f"python-sat; name another, e.g. {DEFAULT_SOLVER}")
    return can


def _load(solver: Any, clauses: Iterator[list[int]], deadline: float | None) -> bool:
    """Add the clauses to the solver as they come; False if the deadline came first."""
    add = getattr(solver, "solver", solver).add_clause  # the solver itself: one call less
    if deadline is None:
        for clause in clauses:
            add(clause)
        return True
    added = 0
    for clause in clauses:
        add(clause)
        added += len(clause)
        if added >= LOAD_CHECK_LITERALS:
            added = 0
            if time.perf_counter() >= deadline:
                return False
    return True


class Search:
    """One in-process SAT search over one puzzle, resumable solution by solution.

    The model is loaded when the search is made, stopping at the deadline of ``limits``
    (then ``built`` is False and every ``step()`` is at a limit); a model over
    ``limits.max_memory`` is refused with LimitReached before it is built.
    ``step()`` returns the next solution; at a limit it returns None, and after the limits
    are raised (``deadline``, ``max_conflicts``) a later ``step()`` goes on, keeping what the
    solver learned. With a deadline, only for solvers python-sat can interrupt
    (``abilities``)."""

    def __init__(self, puzzle: AnyPuzzle, limits: SearchLimits, solver: str,
                 known: Grid | None, started: float, encoding: str | None = None,
                 extra: Sequence[list[int]] = ()) -> None:
        self.puzzle = puzzle
        self.max_conflicts = limits.max_nodes
        self.deadline = limits.deadline(started)
        self.partial = known if known is not None else unknown_grid(puzzle)
        # (a count the deadline stopped is short: the model is not built then)
        size = check_memory(puzzle, known, limits.max_memory, encoding, self.deadline)
        self.size = {"variables": size.variables, "clauses": size.clauses,
                     "extra_clauses": len(extra)}
        self.can = check_solver(solver, limits)
        if limits.timeout is not None and not self.can.interrupt:
            raise ValueError(f"{solver} cannot be interrupted: analyse() runs it in a child "
                             "process under a timeout")
        self.sat = _solver(solver)
        self.seconds = 0.0  # time spent in the solver
        model = itertools.chain(cnf.clauses(puzzle, known, encoding), extra)
        self.built = not passed(self.deadline) and _load(self.sat, model, self.deadline)
        self.size["built"] = int(self.built)

    def close(self) -> None:
        self.sat.delete()

    def stats(self) -> dict[str, int]:
        out = ({k: int(v) for k, v in self.sat.accum_stats().items()} if self.can.stats
               else {})
        out.update(self.size)
        return out

    def conflicts(self) -> int:
        """The conflicts so far (0 from a solver that does not say)."""
        return int(self.sat.accum_stats().get("conflicts", 0)) if self.can.stats else 0

    def run(self) -> Iterator[Grid]:
        """Yield solutions, each blocked before the next call (LimitReached at a limit)."""
        while True:
            answer = self.step()
            if answer is None:
                raise LimitReached("SAT search limit reached", partial=self.partial,
                                   nodes=self.conflicts())
            if answer is False:
                return
            yield answer

    def step(self) -> Grid | Literal[False] | None:
        """The next solution (blocked for the calls after), False when there are no more, or
        None when a limit came first."""
        answer = self._solve() if self.built else None
        if answer is None:
            return None
        if not answer:
            return False
        p = self.puzzle
        cells = self.sat.get_model()[:cnf.cell_variables(p)]
        self.sat.add_clause([-v for v in cells])
        return checked(p, _grid(p, cells), "SAT")

    def _solve(self) -> bool | None:
        """True (a model), False (no more models) or None (a limit came first)."""
        entered = time.perf_counter()
        try:
            return self._solve_limited()
        except Exception as exc:  # python-sat's own SIGINT handler (no interrupt() expected)
            if str(exc) == PYSAT_CTRL_C:
                _python_takes_sigint()
                raise KeyboardInterrupt from None
            raise
        finally:
            self.seconds += time.perf_counter() - entered

    def _solve_limited(self) -> bool | None:
        """Ctrl-C stops the solve through ``watch`` for every solver python-sat can interrupt,
        deadline or not: python-sat's own SIGINT handler jumps (longjmp) back into the solve
        from whichever thread the kernel gave the signal to, and with any other thread in the
        process (the progress line, a pool's) that can be the wrong one: the solve then ran
        on, deaf to Ctrl-C, or jumps out of a malloc holding its lock (make test-slow hung once).
        The solvers it cannot interrupt keep python-sat's handler, without a deadline, in the
        child process ``analyse`` runs them in."""
        if not self.can.interrupt and self.max_conflicts is None:
            return bool(self.sat.solve())
        budget = -1
        if self.max_conflicts is not None:
            budget = self.max_conflicts - self.conflicts()
            if budget <= 0:
                return None
        self.sat.conf_budget(budget)
        if not self.can.interrupt:  # python-sat takes Ctrl-C itself (_solve); no deadline
            answer = self.sat.solve_limited()
            return None if answer is None else bool(answer)
        # before this call's timer starts: a short one can fire before the solve begins, and
        # clearing after it lost its interrupt (the solve then ran to its conflict budget);
        # an earlier call's timer cannot fire any more (it was joined)
        self.sat.clear_interrupt()
        if self.deadline is not None and self.deadline <= time.perf_counter():
            return None
        # under interrupt() python-sat leaves SIGINT alone: one thread is the timer and
        # watches for Ctrl-C (Python's KeyboardInterrupt follows the stopped solve)
        with watch(self.sat.interrupt, self.deadline):
            answer = self.sat.solve_limited(expect_interrupt=True)
        return None if answer is None else bool(answer)


def _python_takes_sigint() -> None:
    """Give SIGINT back to Python's handler and unblock it: python-sat's handler, which jumps
    out of itself back into the solve, stays after it caught Ctrl-C (a second Ctrl-C jumped
    into a solve long over) and leaves SIGINT blocked in this thread (none came any more)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.getsignal(signal.SIGINT))
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def analyse(puzzle: AnyPuzzle, max_solutions: int = 2, limits: SearchLimits = SearchLimits(), *,
            solver: str = DEFAULT_SOLVER, known: Grid | None = None,
            encoding: str | None = None, extra: Sequence[list[int]] = ()) -> Result:
    """Search up to ``max_solutions`` solutions with a SAT solver; same Result as the engine.

    ``limits.max_nodes`` is a budget of SAT conflicts, and ``nodes`` reports conflicts.
    ``known`` cells ('#'/'.') must be proven facts (e.g. the native engine's root grid); they
    are added as unit clauses and returned as ``partial`` (SAT proves no cells by itself).
    ``encoding`` names the model (``cnf.ENCODINGS``; None: ``cnf.encoding_for``); ``extra``
    clauses over the cell variables (implied by the clues, e.g. what probing learned) are
    added to it."""
    started = time.perf_counter()
    _pysat()
    if not check_solver(solver, limits).interrupt:
        # a solver no timer can stop runs in a child process, killed at the deadline or at
        # Ctrl-C: python-sat's own SIGINT handler, its only other way out, jumps out of the
        # solver wherever it is (a malloc's lock held) and from whatever thread got the signal
        # (counted up to the deadline, as Search does: a child started after it is killed)
        check_memory(puzzle, known, limits.max_memory, encoding, limits.deadline(started))
        return _analyse_in_child(puzzle, max_solutions, limits, solver, known, started,
                                 encoding, extra)
    found: list[Grid] = []
    search = Search(puzzle, limits, solver, known, started, encoding, extra)
    complete = True
    try:
        for grid in search.run():
            found.append(grid)
            if len(found) >= max_solutions:
                break
    except LimitReached:
        complete = False
    finally:
        stats = search.stats()
        search.close()
    return Result.of_count(tuple(found), max_solutions, complete, stats.get("conflicts", 0),
                           time.perf_counter() - started, search.partial, stats)


def cap_address_space(max_memory: int | None) -> None:
    """Let this process map at most ``max_memory`` bytes more than it has now (RLIMIT_AS), so
    an allocation past the memory limit fails instead of taking the machine's memory."""
    if max_memory is None:
        return
    try:
        import resource
        with open("/proc/self/statm") as f:
            mapped = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        resource.setrlimit(resource.RLIMIT_AS, (mapped + max_memory, resource.RLIM_INFINITY))
    except (ImportError, OSError, ValueError):  # not Linux: the size estimate alone holds it
        pass


def _child(conn: Connection, parent: int, puzzle: AnyPuzzle, max_solutions: int,
           limits: SearchLimits, solver: str, known: Grid | None, encoding: str | None,
           extra: Sequence[list[int]]) -> None:
    """In the child process: send ("grid", grid) per solution, then ("done", complete, stats).
    Ctrl-C at the terminal reaches it too: blocked here (python-sat's own handler would turn
    it into a traceback), the parent kills it."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    die_with_parent(parent)  # a batch worker killed with its batch takes this search along
    cap_address_space(limits.max_memory)
    max_nodes = limits.max_nodes
    search = Search(puzzle, SearchLimits(max_nodes=max_nodes), solver, known, time.perf_counter(),
                    encoding, extra)
    complete, found = True, 0
    try:
        for grid in search.run():
            conn.send(("grid", grid))
            found += 1
            if found >= max_solutions:
                break
    except LimitReached:
        complete = False
    conn.send(("done", complete, search.stats()))
    conn.close()


def _analyse_in_child(puzzle: AnyPuzzle, max_solutions: int, limits: SearchLimits, solver: str,
                      known: Grid | None, started: float, encoding: str | None,
                      extra: Sequence[list[int]]) -> Result:
    """Run the search in a child process, killed at the deadline (if any) or when this one
    stops (Ctrl-C); keep what it sent."""
    methods = multiprocessing.get_all_start_methods()
    ctx: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    receiver, sender = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, daemon=True,
                       args=(sender, os.getpid(), puzzle, max_solutions, limits, solver,
                             known, encoding, extra))
    proc.start()
    sender.close()
    deadline = limits.deadline(started)
    found: list[Grid] = []
    complete, stats = False, {}
    try:
        while True:
            left = None if deadline is None else deadline - time.perf_counter()
            if (left is not None and left <= 0) or not receiver.poll(left):
                break
            try:
                message = receiver.recv()
            except EOFError:
                proc.join()
                if limits.max_memory is not None and proc.exitcode != 0:
                    raise LimitReached(f"the {solver} SAT process ran out of the memory limit "
                                       f"of {_mb(limits.max_memory)}") from None
                raise GridsolveError(f"the {solver} SAT process ended unexpectedly "
                                     f"(exit code {proc.exitcode})") from None
            if message[0] == "grid":
                found.append(checked(puzzle, message[1], "SAT"))
            else:
                complete, stats = message[1], message[2]
                break
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        receiver.close()
    return Result.of_count(tuple(found), max_solutions, complete, stats.get("conflicts", 0),
                           time.perf_counter() - started,
                           known if known is not None else unknown_grid(puzzle), stats)
