"""Kissat, run as a program (backends/kissat.py): exact counts against brute force and the
native engine, limits that hold, no process left behind, and auto's choice of it."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from gridsolve.errors import GridsolveError, LimitReached, SolverUnavailable
from gridsolve.nonogram.backends import analyse, auto, kissat
from gridsolve.nonogram.backends._common import DEFAULT_SOLVER
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.engine import colour as ce
from gridsolve.nonogram.model import (Puzzle, colour_puzzle_from_grid, is_solution,
                                      puzzle_from_grid)
from gridsolve.nonogram.policy import DEFAULT_POLICY, Policy
from tests.nonogram.backends import programs
from tests.nonogram.backends.programs import random_puzzle, running_children
from tests.nonogram.backends.test_backends import status_for, tiny_puzzles
from tests.nonogram.cases import CASES
from tests.nonogram.engine.test_colour_engine import palette, random_grid
from tests.nonogram.oracle import all_solutions as brute_force

# (the SAT side is tested on random puzzles the dive would end at once: tests of auto on
# those pass conftest's no_dive policy)
# heavy: all but three tests here start the Kissat program (make test-slow runs them)
pytestmark = [pytest.mark.skipif(not kissat.installed(),
                                 reason="kissat (gridsolve[kissat]) not installed"),
              pytest.mark.heavy]


@pytest.mark.parametrize("name,puzzle,n,solution", CASES, ids=[c[0] for c in CASES])
def test_case_table(name: str, puzzle: Puzzle, n: int, solution: tuple[str, ...] | None) -> None:
    want = brute_force(puzzle)
    result = analyse(puzzle, 10, method="sat", solver="kissat")
    assert set(result.solutions) == want and len(result.solutions) == len(want)
    assert result.status == status_for(len(want), 10)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles())
def test_tiny_puzzles_match_brute_force(puzzle: Puzzle) -> None:
    want = brute_force(puzzle)
    result = kissat.analyse(puzzle, 64)
    assert set(result.solutions) == want and len(result.solutions) == len(want)
    assert result.status == status_for(len(want), 64)


@pytest.mark.parametrize("guided", [True, False])
def test_counts_like_the_native_engine(guided: bool, request: pytest.FixtureRequest) -> None:
    """Random 6x6 to 12x12 pictures, counting to 30: local moves, the guided search and
    blocked runs together find each solution once, and all of them; and without the guided
    search (which proves most of these itself, so that no second run comes)."""
    if not guided:
        request.getfixturevalue("no_guided")
    for seed in range(12):
        puzzle = random_puzzle(seed, 6 + seed % 7, 12 - seed % 7)
        native = analyse(puzzle, 30, method="native")
        result = kissat.analyse(puzzle, 30)
        assert result.status == native.status, seed
        assert len(set(result.solutions)) == len(result.solutions) == len(native.solutions)
        if len(native.solutions) < 30:
            assert set(result.solutions) == set(native.solutions), seed
        assert all(is_solution(puzzle, g) for g in result.solutions)


def test_colour_puzzles_agree_with_the_colour_engine() -> None:
    rng = random.Random(3)
    for _ in range(6):
        colours = rng.randint(2, 3)
        grid = random_grid(rng, rng.randint(6, 10), rng.randint(6, 10), colours, 0.5)
        puzzle = colour_puzzle_from_grid(grid, palette(colours))
        native = ce.analyse(puzzle, 10)
        result = analyse(puzzle, 10, method="sat", solver="kissat")
        assert result.status == native.status
        assert set(result.solutions) == set(native.solutions) or len(native.solutions) == 10


def test_known_cells_and_found_solutions() -> None:
    puzzle = next(c[1] for c in CASES if c[0] == "diagonal pair")  # two solutions
    assert kissat.analyse(puzzle, 10, known=("#?", "??")).solutions == (("#.", ".#"),)
    assert kissat.analyse(puzzle, 10, known=("##", "??")).status == "none"
    # a solution already found is blocked and counted: the other one completes the pair
    result = kissat.analyse(puzzle, 2, found=[("#.", ".#")])
    assert result.status == "multiple" and set(result.solutions) == {("#.", ".#"), (".#", "#.")}


def kissat_processes() -> int:
    """Running processes of the kissat program started by this process (its children)."""
    return running_children(kissat.program())


def test_seeds_give_the_same_solutions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another seed is another path to the same solutions (brute force); the seed reaches
    the program as --seed (none for 0, its default); a seed out of its range is refused."""
    args: list[list[str]] = []
    real = subprocess.Popen

    def spy(cmd: list[str], *a: object, **k: object) -> object:
        args.append(cmd)
        return real(cmd, *a, **k)  # type: ignore[call-overload]
    monkeypatch.setattr(subprocess, "Popen", spy)
    for seed in (0, 1, 7):
        for i in range(4):
            puzzle = random_puzzle(40 + i, 5, 6)
            want = brute_force(puzzle)
            got = list(kissat.solutions(puzzle, seed=seed))
            assert set(got) == want and len(got) == len(want)
        assert args and all((f"--seed={seed}" in cmd) == (seed != 0) for cmd in args)
        args.clear()
    for bad in (-1, 2**31):
        with pytest.raises(ValueError, match="seed"):
            kissat.solutions(random_puzzle(1, 3, 3), seed=bad)


def test_timeout_and_node_limit_stop_it() -> None:
    """A random 70x70 picture Kissat needs seconds for: a timeout kills it on time (nothing
    left running), a conflict limit stops it, and both say unknown."""
    puzzle = random_puzzle(70_001, 70, 70)
    started = time.perf_counter()
    result = kissat.analyse(puzzle, 2, SearchLimits(timeout=0.3))
    assert result.status == "unknown" and not result.solutions
    assert time.perf_counter() - started < 2.5
    assert kissat_processes() == 0
    result = kissat.analyse(puzzle, 2, SearchLimits(max_nodes=50))
    assert result.status == "unknown" and result.nodes <= 50 + 100  # it checks between restarts


def test_a_run_stopped_at_the_deadline_reports_its_conflicts() -> None:
    """At the deadline Kissat is sent SIGINT and prints its statistics before it goes: the
    conflicts count as nodes (they were lost when it was killed outright), on time. A 70x70
    open for minutes, whose model Kissat reads in a few hundredths of a second, so that its
    search has begun by the deadline however busy the machine (a 100x100, whose conflicts
    began at ~0.8 s on a quiet machine, had none in 3 s at load 4.5: issue 53.5)."""
    puzzle = random_puzzle(70_001, 70, 70)  # 12,634 conflicts in 3 s, ~0.1 s to the first
    started = time.perf_counter()
    result = kissat.analyse(puzzle, 2, SearchLimits(timeout=3.0))
    assert time.perf_counter() - started < 3.0 + 0.5
    assert result.status == "unknown" and result.nodes > 0
    assert result.stats["conflicts"] == result.nodes and kissat_processes() == 0


def test_memory_limit() -> None:
    """A model over the limit is refused before it is built (as python-sat's are)."""
    puzzle = random_puzzle(7, 70, 70)
    with pytest.raises(LimitReached, match="memory limit"):
        kissat.analyse(puzzle, 2, SearchLimits(max_memory=2**20))


def test_missing_program(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(kissat.ENV, raising=False)
    monkeypatch.setattr(kissat.PROGRAM, "found", [None])  # none on the PATH or in a wheel
    with pytest.raises(SolverUnavailable, match=r"gridsolve\[kissat\]"):
        analyse(CASES[0][1], method="sat", solver="kissat")
    assert auto.default_solver(random_puzzle(1, 64, 64)) == DEFAULT_SOLVER


def test_auto_takes_kissat_for_long_lines_only() -> None:
    assert auto.default_solver(random_puzzle(1, 64, 64)) == "kissat"
    assert auto.default_solver(random_puzzle(1, 63, 99)) == DEFAULT_SOLVER  # Gettys' shape
    grid = random_grid(random.Random(1), 64, 64, 2, 0.5)
    assert auto.default_solver(colour_puzzle_from_grid(grid, palette(2))) == DEFAULT_SOLVER


def test_auto_hands_over_to_kissat(no_dive: Policy) -> None:
    """A random 50x50 picture the native team does not end in its first turn (taken to Kissat
    here by a lower line threshold): a checked answer, the team's solutions kept."""
    policy = replace(no_dive, kissat_min_line=50, first_work_large=40_000,
                     auto_nodes=1)  # the root alone
    puzzle = random_puzzle(2, 50, 50)  # test_backends.hard_puzzle: several solutions
    assert auto.default_solver(puzzle, 2, policy) == "kissat" != auto.default_solver(puzzle, 2)
    result = auto.analyse(puzzle, 2, SearchLimits(timeout=60), policy=policy)
    assert result.status == "multiple" and len(set(result.solutions)) == 2
    assert all(is_solution(puzzle, g) for g in result.solutions)
    assert result.stats["handover"] == 1 and result.stats["sat_kissat_runs"] >= 1


def fake_program(tmp_path, monkeypatch: pytest.MonkeyPatch, message: str, code: int) -> None:  # type: ignore[no-untyped-def]
    """$GRIDSOLVE_KISSAT names a script that reads its input, says ``message``, exits ``code``."""
    programs.fake_program(tmp_path, monkeypatch, kissat.ENV, "kissat", message, code)


def test_a_failing_program_is_one_clear_error(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """A program that stops without an answer: a GridsolveError with its last message; under
    a memory limit, a memory error only when it says so (or was killed)."""
    puzzle = random_puzzle(5, 8, 8)
    fake_program(tmp_path, monkeypatch, "kissat: fatal error: out of memory", 1)
    with pytest.raises(GridsolveError, match="exit code 1.*out of memory"):
        kissat.analyse(puzzle, 2)
    with pytest.raises(kissat.OutOfMemory, match="memory limit"):
        kissat.analyse(puzzle, 2, SearchLimits(max_memory=2**30))
    fake_program(tmp_path, monkeypatch, "kissat: error: parse error", 1)
    with pytest.raises(GridsolveError, match="parse error") as caught:
        kissat.analyse(puzzle, 2, SearchLimits(max_memory=2**30))
    assert not isinstance(caught.value, LimitReached)
    fake_program(tmp_path, monkeypatch, "nothing", 0)  # no answer, and no conflict limit given
    with pytest.raises(GridsolveError, match="without an answer"):
        kissat.analyse(puzzle, 2)
    monkeypatch.setenv(kissat.ENV, str(tmp_path / "no-such-program"))
    with pytest.raises(GridsolveError, match="no-such-program cannot be run"):
        kissat.analyse(puzzle, 2)


def test_a_lower_address_space_limit_holds(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Under a hard RLIMIT_AS below the memory limit, Kissat starts with that one (setting a
    higher one would fail before it runs) and still answers."""
    puzzle = random_puzzle(5, 8, 8)
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (2**32, 2**32))\n"
            "from gridsolve.nonogram.backends import kissat\n"
            "from gridsolve.nonogram.engine import SearchLimits\n"
            "from gridsolve.nonogram.model import Puzzle\n"
            f"p = Puzzle({puzzle.rows!r}, {puzzle.cols!r})\n"
            "r = kissat.analyse(p, 2, SearchLimits(max_memory=2**33))\n"
            "print(r.status)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == analyse(puzzle, 2, method="native").status


def test_auto_takes_kissat_without_python_sat(monkeypatch: pytest.MonkeyPatch,
                                              no_dive: Policy) -> None:
    """The kissat extra alone is enough for auto's hand-over on a puzzle of long lines."""
    monkeypatch.setattr(auto, "sat_installed", lambda: False)
    policy = replace(no_dive, auto_nodes=1)  # the root alone, then the hand-over
    rng = random.Random(0)  # a 64x64 picture at 53% density: the root does not end it
    puzzle = puzzle_from_grid(["".join("#" if rng.random() < 0.53 else "." for _ in range(64))
                               for _ in range(64)])
    result = auto.analyse(puzzle, 2, SearchLimits(timeout=60), policy=policy)
    assert result.status == "multiple" and len(set(result.solutions)) == 2
    assert all(is_solution(puzzle, g) for g in result.solutions)
    assert result.stats["handover"] == 1 and result.stats["sat_kissat_runs"] >= 1


def test_jobs_with_kissat_missing_is_one_clear_error(monkeypatch: pytest.MonkeyPatch,
                                                    no_dive: Policy) -> None:
    from gridsolve.nonogram.backends import parallel
    monkeypatch.delenv(kissat.ENV, raising=False)
    monkeypatch.setattr(kissat.PROGRAM, "found", [None])
    with pytest.raises(SolverUnavailable, match=r"gridsolve\[kissat\]"):
        parallel.analyse(random_puzzle(2, 50, 50), 2, SearchLimits(timeout=30), jobs=2,
                         solver="kissat", policy=no_dive)


def test_auto_hands_a_small_puzzle_to_kissat_after_the_first_round(
        monkeypatch: pytest.MonkeyPatch, puzzles_dir: Path) -> None:
    """A small puzzle still open after one round of turns goes to Kissat (0019), with the
    solutions so far pooled: a checked "multiple"; a named solver keeps the turns. The
    puzzle: taai2011 #591 (25x25), which the native search does not end in seconds."""
    from gridsolve.nonogram.formats import iter_entries
    path = puzzles_dir / "nonogramrecord-tournaments/question/taai2011.txt"
    puzzle = list(iter_entries(str(path)))[590].puzzle
    assert isinstance(puzzle, Puzzle)
    policy = replace(DEFAULT_POLICY, auto_nodes=1)
    monkeypatch.setattr(auto, "sat_work", lambda *_: 0.0)  # Glucose's turn: none at all
    got = auto.analyse(puzzle, 2, SearchLimits(timeout=120), policy=policy)
    assert got.status == "multiple" and len(set(got.solutions)) == 2
    assert all(is_solution(puzzle, g) for g in got.solutions)
    assert "glucose_conflicts" in got.stats and got.stats["sat_kissat_runs"] >= 1
    monkeypatch.setattr(auto, "_alone", lambda *_a, **_k: pytest.fail("named: no hand-over"))
    monkeypatch.setattr(auto, "sat_work", lambda *_: 40_000_000.0)  # about 10 s of work
    named = auto.analyse(puzzle, 2, SearchLimits(timeout=120), solver=DEFAULT_SOLVER,
                         policy=policy)
    assert named.status == "multiple"
