"""What the SAT solvers run as programs (``kissat``, ``syrup``) share: finding the program,
feeding it the puzzle's DIMACS as it is made (never held whole), one run under the deadline
and the memory limit (``RLIMIT_AS``: a run that hits it is an OutOfMemory), and the loop of
runs that gives solutions one by one, with local moves and the guided search between runs
(docs/engine.md, "Programs and counts"; decision 0032).
"""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

from gridsolve.errors import GridsolveError, LimitReached, OutOfMemory, SolverUnavailable
from gridsolve.nonogram.backends import cnf
from gridsolve.nonogram.backends._common import checked, unknown_grid
from gridsolve.nonogram.engine import Result, SearchLimits, abilities, passed, seconds_left
from gridsolve.nonogram.engine.guided import GUIDED_NODES, Guided
from gridsolve.nonogram.engine.nearby import nearby
from gridsolve.nonogram.model import AnyPuzzle, Grid, Puzzle
from gridsolve.nonogram.policy import DEFAULT_POLICY, Policy
from gridsolve.nonogram.reference import fits
from gridsolve.workers import program_setup

__all__ = ["KILLED", "STATS_GRACE", "interrupted", "OutOfMemory", "Ended", "Answer", "Program",
           "run", "watchable", "Text", "model", "answer", "failed", "solutions", "pooled"]

#: Seconds a run stopped at the deadline may take to print its statistics (its conflicts:
#: the search's ``nodes``) before it is killed: Kissat takes about 4 ms on random 70x70,
#: glucose-syrup 2-9 ms with 1-2 threads on random 50x50 to 70x70 and Gettys.
STATS_GRACE = 0.05

#: Exit codes of a process killed by SIGABRT or SIGKILL (an allocation that failed under
#: the address-space cap can end either way), as subprocess and a shell report them.
KILLED = (-6, -9, 134, 137)

#: One run's answer: the model's literals, False (unsatisfiable) or None (a limit came first);
#: and the conflicts it took (0 where the program did not say).
Answer = tuple["list[int] | Literal[False] | None", int]


@dataclass(frozen=True)
class Ended:
    """How a run ended: the exit code (None: stopped at the deadline, or killed when it
    stalled) and what it printed (at the deadline, what ``interrupted`` got from it)."""

    code: int | None
    out: str
    err: str = ""
    stalled: bool = False


def watchable() -> bool:
    """Can a run's CPU time be read (``run``'s ``stall``: Linux's /proc)?"""
    return _cpu_ticks(os.getpid()) is not None


def _cpu_ticks(pid: int) -> int | None:
    """The CPU time (clock ticks, every thread) a process has used so far, from /proc
    (Linux); None where it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    except (OSError, ValueError, IndexError):
        return None


@dataclass
class Program:
    """A SAT solver run as a program: ``name``, the environment variable ``env`` that names
    another, and the ``extra`` that ships it (a passagemath wheel)."""

    name: str
    env: str
    extra: str
    found: list[str | None] = field(default_factory=list, compare=False)  # [path or None]

    def path(self) -> str | None:
        """$``env``, else the program a passagemath wheel ships, else one on the PATH."""
        path = os.environ.get(self.env)
        if path:
            return path
        if not self.found:
            self.found.append(_shipped(self.name) or shutil.which(self.name))
        return self.found[0]

    def installed(self) -> bool:
        return self.path() is not None

    def require(self) -> str:
        """The program's path; SolverUnavailable (naming the extra) if there is none."""
        path = self.path()
        if path is None:
            raise SolverUnavailable(self.name, self.extra)
        return path


def _shipped(name: str) -> str | None:
    from importlib.util import find_spec
    try:
        spec = find_spec("sage_wheels")
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(folder, "bin", name)
        if os.access(path, os.X_OK):
            return path
    return None


def run(args: list[str], name: str, header: str, text: Iterable[str],
        deadline: float | None, max_memory: int | None, stall: float | None = None) -> Ended:
    """One run of ``args`` on the model; at the deadline it is asked for its statistics
    (``interrupted``) before it is killed; with ``stall``, a run that uses no CPU time for that
    long is killed as hung (Linux). The process never outlives the call."""
    if passed(deadline):
        return Ended(None, "")
    parent = os.getpid()
    try:
        proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: program_setup(max_memory, parent))
    except OSError as exc:  # e.g. a wrong path in the environment variable
        raise GridsolveError(f"the {name} program {args[0]} cannot be run: "
                             f"{exc.strerror or exc}") from None
    try:
        assert proc.stdin is not None
        try:  # the model's DIMACS as it is made, chunk by chunk (``cnf.dimacs``: never whole)
            proc.stdin.write(header)
            for chunk in text:
                proc.stdin.write(chunk)
                if passed(deadline):
                    return Ended(None, "")
        except BrokenPipeError:  # it stopped reading: its exit code says why
            pass
        ticks = None if stall is None else _cpu_ticks(proc.pid)
        while True:
            left = seconds_left(deadline)
            # a look at its CPU time comes before the deadline: wait that long only
            look = (stall if stall is not None and ticks is not None
                    and (left is None or left > stall) else None)
            try:  # to the look, else to the deadline
                out, err = proc.communicate(timeout=left if look is None else look)
                break
            except subprocess.TimeoutExpired:
                if look is None or passed(deadline):
                    return Ended(None, interrupted(proc))
                now = _cpu_ticks(proc.pid)
                if now == ticks:  # no CPU time since the last look: it hangs
                    return Ended(None, "", stalled=True)
                ticks = now
            except BrokenPipeError:
                return Ended(None, "")
    finally:  # at the deadline, and on Ctrl-C: nothing waits for it
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return Ended(proc.returncode, out, err)


def interrupted(proc: subprocess.Popen[str], grace: float = STATS_GRACE) -> str:
    """A ``run`` stop at the deadline: the program, sent SIGINT, prints its statistics and
    exits; what it printed, or nothing if it has not ended within ``grace`` seconds (the
    caller then kills it)."""
    try:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=grace)
    except (subprocess.TimeoutExpired, OSError, ValueError):
        return ""
    return out


def model(out: str) -> list[int]:
    """The literals of the model a program printed on its "v" lines."""
    return [int(v) for line in out.splitlines() if line.startswith("v ")
            for v in line[2:].split()]


def answer(ended: Ended, used: int, error: Callable[[Ended], GridsolveError]) -> Answer:
    """A run's answer by its exit code (10: the model, 20: False, None: stopped at a limit),
    with the conflicts ``used``; any other code raises ``error(ended)``."""
    if ended.code is None:
        return None, used
    if ended.code == 20:
        return False, used
    if ended.code != 10:
        raise error(ended)
    return model(ended.out), used


def failed(name: str, ended: Ended, max_memory: int | None) -> GridsolveError:
    """The error for a run that ended without an answer: OutOfMemory when it looks like the
    memory limit stopped it, else one line with its exit code and last message."""
    said = (ended.err.strip().splitlines() or ["no message"])[-1]
    if max_memory is not None and ("memory" in ended.err.lower() or ended.code in KILLED):
        return OutOfMemory(f"{name} stopped at the memory limit of "
                           f"{max_memory / 2**20:,.0f} MB (exit code {ended.code}: "
                           f"{said})").with_remedy("max_memory")
    return GridsolveError(f"{name} ended without an answer (exit code {ended.code}): {said}")


#: The model's DIMACS text in chunks, made anew at each call (a run may need it twice).
Text = Callable[[], Iterator[str]]
#: One run: (the DIMACS header, the model's text, the deadline, the conflicts it may take
#: or None) to its answer.
Once = Callable[[str, Text, "float | None", "int | None"], Answer]


def solutions(puzzle: AnyPuzzle, once: Once, name: str, limits: SearchLimits,
              started: float, known: Grid | None, encoding: str | None,
              extra: Sequence[list[int]], found: Sequence[Grid], out: dict[str, int],
              runs: str = "runs", policy: Policy = DEFAULT_POLICY,
              guided_always: bool = False) -> Iterator[Grid]:
    """The puzzle's solutions other than ``found``, each checked, as they come; LimitReached
    at a limit (the node limit caps all runs' conflicts). Each run (``once``) gets the model
    anew with the solutions so far blocked; after each solution, local moves and (without a node
    limit, or ``guided_always``) the guided search, whose exhaustion ends the loop. ``out``
    gets conflicts, ``runs``, nearby and guided."""
    from gridsolve.nonogram.backends.sat import check_memory
    size = check_memory(puzzle, known, limits.max_memory, encoding)
    if found and not abilities(puzzle).moves:
        raise ValueError("found solutions are for puzzles whose engine has local moves (black "
                         "and white)")
    deadline, max_nodes = limits.deadline(started), limits.max_nodes

    def grids() -> Iterator[Grid]:
        from gridsolve.nonogram.backends.sat import _grid
        ncells = cnf.cell_variables(puzzle)
        top = max([size.variables, ncells] + [abs(lit) for clause in extra for lit in clause])
        blocked = [cnf.blocking_clause(cast(Puzzle, puzzle), grid) for grid in found]
        out.update({"conflicts": 0, runs: 0, "nearby": 0, "guided": 0})
        seen: dict[Grid, None] = dict.fromkeys(found)
        guide: Guided | None = None  # the guided search, made at the first solution
        while True:
            left = None if max_nodes is None else max_nodes - out["conflicts"]
            answer = None
            if left is None or left > 0:
                header = f"p cnf {top} {size.clauses + len(extra) + len(blocked)}\n"
                def text() -> Iterator[str]:
                    return itertools.chain(cnf.dimacs(puzzle, known, encoding),
                                           cnf.dimacs_text(extra), cnf.dimacs_text(blocked))
                answer, used = once(header, text, deadline, left)
                out[runs] += 1
                out["conflicts"] += used
            if answer is None:
                raise LimitReached(f"{name} search limit reached", partial=known,
                                   nodes=out["conflicts"])
            if answer is False:
                return
            cells = answer[:ncells]
            grid = checked(puzzle, _grid(puzzle, cells), name)
            if grid in seen:  # a model its blocking clause rules out: the count would be wrong
                raise GridsolveError(f"{name} gave a solution again that it was told to leave "
                                     "out")
            blocked.append([-v for v in cells])
            seen[grid] = None
            yield grid
            if abilities(puzzle).moves:
                bw = cast(Puzzle, puzzle)
                for other in nearby(bw, grid, seen=seen, deadline=deadline):
                    if known is not None and not all(map(fits, other, known)):
                        continue  # (known cells are facts of every solution, or a restriction)
                    blocked.append(cnf.blocking_clause(bw, other))
                    seen[other] = None
                    out["nearby"] += 1
                    yield other
                if max_nodes is not None and not guided_always:
                    continue  # (not in the conflicts' budget)
                if guide is None:
                    guide = Guided(bw, known)
                # its share in nodes, from the run's conflicts: the same on every machine
                nodes = max(policy.guided_min_nodes,
                            int(policy.guided_nodes_per_conflict * used))
                work = max(policy.guided_min_work, int(policy.guided_share * used
                                                       * policy.conflict_work))
                search = guide.around(grid, seen, deadline, min(nodes, GUIDED_NODES), work)
                while True:
                    try:
                        other = next(search)
                    except StopIteration as stop:
                        exhausted = bool(stop.value)
                        break
                    blocked.append(cnf.blocking_clause(bw, other))
                    seen[other] = None
                    out["guided"] += 1
                    yield other
                if exhausted:  # every solution is in seen
                    return
    return grids()


def pooled(puzzle: AnyPuzzle, max_solutions: int, known: Grid | None, found: Sequence[Grid],
           grids: Callable[[dict[str, int], tuple[Grid, ...]], Iterator[Grid]]) -> Result:
    """A program's ``analyse``: ``found`` and the solutions of ``grids(stats, found)`` pooled
    up to ``max_solutions``; "unknown" past a limit, OutOfMemory raised."""
    started = time.perf_counter()
    stats: dict[str, int] = {}
    pool = list(dict.fromkeys(found))
    complete = True
    made = grids(stats, tuple(pool))  # a missing program or a model too big: raised here
    try:
        for grid in made:
            pool.append(grid)
            if len(pool) >= max_solutions:
                break
    except OutOfMemory:
        raise
    except LimitReached:
        complete = False
    pool = pool[:max_solutions]
    return Result.of_count(tuple(pool), max_solutions, complete, stats.get("conflicts", 0),
                           time.perf_counter() - started,
                           known if known is not None else unknown_grid(puzzle), stats)
