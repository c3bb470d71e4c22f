"""Every SAT solver python-sat offers, asked what it can do (``sat.abilities``) instead of
judged by its name: counts against brute force under a timeout and a node limit where the
solver can hold one, and a clear one-line error where it cannot (or cannot be loaded)."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from dataclasses import replace

import pytest

from gridsolve.errors import GridsolveError
from gridsolve.nonogram.backends import auto
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.model import Puzzle, is_solution, puzzle_from_grid
from gridsolve.nonogram.policy import DEFAULT_POLICY, Policy
from tests.nonogram.cases import CASES
from tests.nonogram.oracle import all_solutions as brute_force

pysat = pytest.importorskip("pysat.solvers")
from gridsolve.nonogram.backends import sat  # noqa: E402  (after the skip)

# the SAT side is tested on random 50x50 puzzles the dive would end at once: those tests
# pass conftest's no_dive policy (smaller puzzles have no dive)

NAMES = sorted(k for k in vars(pysat.SolverNames) if not k.startswith("_"))


def loadable(name: str) -> bool:
    try:
        sat.abilities(name)
    except GridsolveError:
        return False
    return True


def test_abilities_are_asked_not_guessed() -> None:
    glucose = sat.abilities("glucose42")
    assert glucose.interrupt and glucose.limited and glucose.stats and glucose.in_turns
    cadical = sat.abilities("cadical195")
    assert not cadical.interrupt and cadical.limited and not cadical.in_turns
    assert not sat.abilities("cadical300").interrupt  # a name without "cadical" in the old list
    assert not sat.abilities("lingeling").limited


@pytest.mark.heavy
@pytest.mark.parametrize("name", NAMES)
def test_every_solver_counts_or_says_why_not(name: str) -> None:
    """Under a timeout (a child process for the solvers that cannot be interrupted) and, where
    it can hold one, a node limit: every case's solutions, each once. The others: one clear
    GridsolveError, never NotImplementedError or an abort."""
    if name in sat.NOT_INCREMENTAL or not loadable(name):
        with pytest.raises(GridsolveError, match=name):
            sat.analyse(CASES[0][1], 2, SearchLimits(timeout=10), solver=name)
        return
    limits = [SearchLimits(timeout=30)]
    if sat.abilities(name).limited:
        limits.append(SearchLimits(max_nodes=100_000))
    else:
        with pytest.raises(GridsolveError, match="node limit"):
            sat.analyse(CASES[0][1], 2, SearchLimits(max_nodes=10), solver=name)
    for limit in limits:
        for case, puzzle, _, _ in CASES[:8]:
            result = sat.analyse(puzzle, 10, limit, solver=name)
            want = brute_force(puzzle)
            assert set(result.solutions) == want and len(result.solutions) == len(want), case


def test_a_node_limit_holds_without_interrupt() -> None:
    """CaDiCaL with a node limit and no timeout (it used to fail clearing an interrupt it
    does not have): stopped by its conflict budget, "unknown"."""
    rng = random.Random(2)
    puzzle = puzzle_from_grid(["".join(rng.choice("#.") for _ in range(50)) for _ in range(50)])
    result = sat.analyse(puzzle, 2, SearchLimits(max_nodes=50), solver="cadical195")
    assert result.status == "unknown" and result.nodes < 5_000


def hard_puzzle() -> Puzzle:
    rng = random.Random(2)  # several solutions; the native root leaves much open
    return puzzle_from_grid(["".join(rng.choice("#.") for _ in range(50)) for _ in range(50)])


@pytest.mark.heavy
@pytest.mark.parametrize("name", ["cadical195", "minisat22"])
def test_auto_hands_over_to_a_solver_it_cannot_pause(monkeypatch: pytest.MonkeyPatch,
                                                    name: str, no_dive: Policy) -> None:
    """auto with CaDiCaL (no interrupt: one hand-over to a child process, the team's
    solutions blocked and counted) and with MiniSat (turns): both prove "multiple" with two
    different checked solutions."""
    # the root alone: one node, 40,000 line solves at most
    policy = replace(no_dive, first_work_large=40_000, auto_nodes=1)
    alone: list[int] = []
    real_alone = auto._alone

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        alone.append(1)
        return real_alone(*args, **kwargs)
    monkeypatch.setattr(auto, "_alone", spy)
    puzzle = hard_puzzle()
    result = auto.analyse(puzzle, 2, SearchLimits(timeout=120), solver=name, policy=policy)
    assert result.status == "multiple" and len(set(result.solutions)) == 2
    assert all(is_solution(puzzle, g) for g in result.solutions)
    assert result.stats["handover"] == 1
    assert alone == ([1] if name == "cadical195" else [])  # MiniSat: in turns


def test_a_named_solver_that_cannot_run_fails_before_the_native_turn() -> None:
    """auto with kissat404 (no count) or lingeling under a node limit: the error comes at
    once, on an easy puzzle too, not after the native turn on hard ones only."""
    easy = CASES[0][1]
    with pytest.raises(GridsolveError, match="kissat404"):
        auto.analyse(easy, 2, solver="kissat404")
    with pytest.raises(GridsolveError, match="node limit"):
        auto.analyse(easy, 2, SearchLimits(max_nodes=100), solver="lingeling")


@pytest.mark.heavy
@pytest.mark.parametrize("count", [1, 2, 10])
@pytest.mark.parametrize("timeout", [60.0, None])  # CaDiCaL in a child process, or in this one
def test_auto_alone_counts_exactly_with_the_teams_solutions(count: int,
                                                            timeout: float | None) -> None:
    """The single hand-over (``auto._alone``) pools the solutions the team found before it
    with SAT's (blocked there): counting to 1, 2 and 10 on small random puzzles the team had
    begun gives exactly the native engine's answer."""
    from gridsolve.nonogram import engine
    from gridsolve.nonogram.engine.team import team_for
    rng = random.Random(7)
    pooled = 0
    for _ in range(60):
        h, w = rng.randint(6, 12), rng.randint(6, 12)
        puzzle = puzzle_from_grid(["".join(rng.choice("#.") for _ in range(w))
                                   for _ in range(h)])
        team = team_for(puzzle, count)
        assert team is not None
        nodes = 0
        while not team.found and not team.complete and nodes < 200:
            nodes += 1
            team.run(SearchLimits(max_nodes=nodes))
        if not team.found or team.complete:
            continue
        pooled += 1
        want = engine.analyse(puzzle, count)
        got = auto._alone(team, count, SearchLimits(timeout=timeout), "cadical195",
                          time.perf_counter(), team.partial(), None, [])
        assert got.status == want.status and len(got.solutions) == len(want.solutions)
        assert len(set(got.solutions)) == len(got.solutions)
        assert all(is_solution(puzzle, g) for g in got.solutions)
        if want.status != "multiple":  # every solution: the same ones
            assert set(got.solutions) == set(want.solutions)
    assert pooled >= (1 if count == 1 else 3)  # the team had solutions to pool


@pytest.mark.heavy
@pytest.mark.parametrize("args", [["--sat-solver", "kissat404"],
                                  ["--sat-solver", "lingeling", "--max-nodes", "100"],
                                  ["--sat-solver", "cryptosat"]])
def test_cli_names_the_solver_in_one_line(tmp_path, args: list[str]) -> None:  # type: ignore[no-untyped-def]
    if args[1] == "cryptosat" and loadable("cryptosat"):
        pytest.skip("pycryptosat is installed here")
    path = tmp_path / "p.non"
    path.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n")
    run = subprocess.run([sys.executable, "-m", "gridsolve", "nonogram", "solve", "--method",
                          "sat", str(path), *args], capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and args[1] in lines[0] and "Traceback" not in run.stderr


def test_the_turns_number_their_rounds_from_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The schedule is asked with rounds 1, 2, ... and the native work so far: SAT's first
    turn on a small puzzle is sat_share_small times the first native turn."""
    calls: list[tuple[int, int, bool]] = []
    real = auto.sat_work
    policy = replace(DEFAULT_POLICY, auto_nodes=1, first_work=40_000)

    def spy(native: int, rounds: int, small: bool, given: Policy = DEFAULT_POLICY) -> float:
        assert given is policy
        calls.append((native, rounds, small))
        return real(native, rounds, small, given)
    monkeypatch.setattr(auto, "sat_work", spy)
    rng = random.Random(5)
    puzzle = puzzle_from_grid(["".join(rng.choice("#.") for _ in range(30)) for _ in range(30)])
    # named, Glucose keeps the turns (unnamed, a small puzzle goes to Kissat: 0019, 0021)
    result = auto.analyse(puzzle, 2, SearchLimits(timeout=60), solver="glucose42",
                          policy=policy)
    assert result.status in ("unique", "multiple")
    assert calls and calls[0] == (40_000, 1, True)
    assert [k for _, k, _ in calls] == list(range(1, len(calls) + 1))
    assert all(b == 2 * a for (a, _, _), (b, _, _) in zip(calls, calls[1:]))


def test_without_kissat_the_first_turn_is_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small puzzle Kissat could take gets a first turn of first_work_to_kissat (0021);
    when Kissat is not installed that turn goes on to first_work, and the turns with
    Glucose follow as before (their schedule starts from first_work)."""
    calls: list[int] = []
    real = auto.sat_work

    def spy(native: int, rounds: int, small: bool, given: Policy = DEFAULT_POLICY) -> float:
        calls.append(native)
        return real(native, rounds, small, given)
    monkeypatch.setattr(auto, "sat_work", spy)
    monkeypatch.setattr(auto, "_kissat_installed", lambda: False)
    # (the root takes ~13,000 line solves: within the policy's first_stop)
    policy = replace(DEFAULT_POLICY, auto_nodes=1, first_work=40_000, first_work_to_kissat=10_000)
    rng = random.Random(5)
    puzzle = puzzle_from_grid(["".join(rng.choice("#.") for _ in range(30)) for _ in range(30)])
    result = auto.analyse(puzzle, 2, SearchLimits(timeout=60), policy=policy)
    assert result.status in ("unique", "multiple")
    assert result.stats.get("sat_kissat_runs", 0) == 0
    assert calls and calls[0] == 40_000
