"""The search guided by a known solution (engine.guided.Guided): other solutions, each checked,
none twice, and when it is exhausted every solution (brute force is the oracle)."""

from __future__ import annotations

import dataclasses
import functools
import random
import time
from collections.abc import Generator
from pathlib import Path

import pytest

from gridsolve.nonogram.backends import kissat, syrup
from gridsolve.nonogram.backends import _program
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.engine.guided import GUIDED_NODES, Guided
from gridsolve.nonogram.formats import read_puzzle
from gridsolve.nonogram.model import Grid, Puzzle, is_solution, puzzle_from_grid
from gridsolve.nonogram.policy import DEFAULT_POLICY
from gridsolve.nonogram.reference import fits
from tests.nonogram.oracle import all_solutions as brute_force


def run(search: Generator[Grid, None, bool]) -> tuple[list[Grid], bool]:
    """What the generator yields, and its value (exhausted)."""
    out = []
    while True:
        try:
            out.append(next(search))
        except StopIteration as stop:
            return out, bool(stop.value)


@functools.cache
def several(count: int) -> list[tuple[Puzzle, set[Grid]]]:
    """Random 5x5 to 6x6 pictures with 2 to 40 solutions."""
    rng = random.Random(2026)
    found: list[tuple[Puzzle, set[Grid]]] = []
    while len(found) < count:
        h, w = rng.randint(5, 6), rng.randint(5, 6)
        puzzle = puzzle_from_grid(["".join(rng.choice("#.") for _ in range(w)) for _ in range(h)])
        every = brute_force(puzzle)
        if 2 <= len(every) <= 40:
            found.append((puzzle, every))
    return found


@pytest.mark.parametrize("puzzle, every", several(12))
def test_exhausted_it_gives_every_other_solution(puzzle: Puzzle, every: set[Grid]) -> None:
    for solution in sorted(every)[:3]:
        got, exhausted = run(Guided(puzzle).around(solution, set(), max_nodes=10**6))
        assert exhausted
        assert len(got) == len(set(got)) and set(got) == every - {solution}
        assert all(is_solution(puzzle, g) for g in got)
        # the solutions seen already are left out, and still exhausted
        seen = set(sorted(every - {solution})[:1])
        got, exhausted = run(Guided(puzzle).around(solution, seen, max_nodes=10**6))
        assert exhausted and set(got) == every - {solution} - seen


def test_a_unique_puzzle_is_proven() -> None:
    puzzle = puzzle_from_grid(["#..", ".##", "#.#"])
    (solution,) = brute_force(puzzle)
    assert run(Guided(puzzle).around(solution, set())) == ([], True)


def test_known_cells_restrict_it() -> None:
    puzzle, every = several(12)[0]
    solution = sorted(every)[0]
    cell = next((r, c) for r in range(puzzle.height) for c in range(puzzle.width)
                if len({g[r][c] for g in every}) == 2)
    known = tuple("".join(solution[r][c] if (r, c) == cell else "?" for c in range(puzzle.width))
                  for r in range(puzzle.height))
    got, exhausted = run(Guided(puzzle, known).around(solution, set(), max_nodes=10**6))
    assert exhausted
    assert set(got) == {g for g in every if g != solution and all(map(fits, g, known))}


def test_limits_stop_it_unexhausted() -> None:
    """Eight rooks (8! solutions): a node limit and a passed deadline each end it early, not
    exhausted, with checked solutions only."""
    row = tuple([1] for _ in range(8))
    rooks = Puzzle(rows=row, cols=row)
    solution = tuple("".join("#" if c == r else "." for c in range(8)) for r in range(8))
    got, exhausted = run(Guided(rooks).around(solution, set(), max_nodes=20))
    assert not exhausted and 0 < len(got) <= 20
    assert all(is_solution(rooks, g) for g in got) and solution not in got
    got, exhausted = run(Guided(rooks).around(solution, set(), deadline=time.perf_counter() - 1))
    assert (got, exhausted) == ([], False)


@pytest.mark.heavy
def test_thing_s_second_solution_is_next_to_a_sat_solution(puzzles_dir: Path) -> None:
    """The survey's Thing (36x42), whose other solutions lie where local moves may not reach
    from the one SAT finds first: the guided search finds one within its node budget."""
    pytest.importorskip("pysat")
    from gridsolve.nonogram.backends import sat
    thing = read_puzzle(str(puzzles_dir / "gramcracker-survey" / "thing.txt"))
    assert isinstance(thing, Puzzle)
    first = sat.analyse(thing, 1).solutions[0]
    got, exhausted = run(Guided(thing).around(first, set()))
    assert got and not exhausted
    assert all(is_solution(thing, g) for g in got) and first not in got


@pytest.mark.heavy
@pytest.mark.skipif(not kissat.installed(), reason="kissat (gridsolve[kissat]) not installed")
@pytest.mark.parametrize("puzzle, every", several(12)[:6])
def test_kissat_counts_exactly_with_it(puzzle: Puzzle, every: set[Grid]) -> None:
    """Kissat's runs with the guided search after each solution: every solution, once; when
    the guided search is exhausted, no second run."""
    result = kissat.analyse(puzzle, 100)
    assert set(result.solutions) == every and len(result.solutions) == len(every)
    assert result.status == "multiple" and result.exhausted
    assert result.stats["kissat_runs"] == 1
    assert result.stats["nearby"] + result.stats["guided"] == len(every) - 1


@pytest.mark.heavy
@pytest.mark.skipif(not syrup.installed(), reason="glucose-syrup (gridsolve[syrup]) not installed")
def test_syrup_counts_exactly_with_it() -> None:
    puzzle, every = several(12)[1]
    result = syrup.analyse(puzzle, 100, threads=1)
    assert set(result.solutions) == every and result.exhausted


def test_one_search_serves_every_solution() -> None:
    """One Guided, its root settled once, restarted around each solution in turn; a call
    past its deadline before the root is settled gives nothing and spoils nothing."""
    puzzle, every = several(12)[2]
    search = Guided(puzzle)
    first = sorted(every)[0]
    assert run(search.around(first, set(), deadline=time.perf_counter() - 1)) == ([], False)
    for solution in sorted(every):
        got, exhausted = run(search.around(solution, set(), max_nodes=10**6))
        assert exhausted and set(got) == every - {solution}


def five_rooks() -> Puzzle:
    return Puzzle([[1]] * 5, [[1]] * 5)


@pytest.mark.heavy
@pytest.mark.skipif(not kissat.installed(), reason="kissat (gridsolve[kissat]) not installed")
def test_what_it_finds_is_blocked_for_the_next_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Five rooks (120 solutions), no local moves, the guided search cut to 8 nodes, so
    that Kissat runs again and again after it: a guided solution left unblocked would come
    back from Kissat (an error), and the count would not be 120."""
    monkeypatch.setattr(_program, "nearby", lambda *_a, **_k: iter(()))
    around = Guided.around

    def few(self: Guided, solution: Grid, seen: object, deadline: float | None = None,
            max_nodes: int = 0, max_work: int | None = None) -> object:
        return around(self, solution, seen, deadline, 8, max_work)  # type: ignore[arg-type]
    monkeypatch.setattr(Guided, "around", few)
    result = kissat.analyse(five_rooks(), 200)
    assert len(set(result.solutions)) == len(result.solutions) == 120 and result.exhausted
    assert result.stats["guided"] >= 10 and result.stats["kissat_runs"] >= 10
    assert all(is_solution(five_rooks(), g) for g in result.solutions)


@pytest.mark.heavy
@pytest.mark.skipif(not kissat.installed(), reason="kissat (gridsolve[kissat]) not installed")
def test_its_nodes_are_a_share_of_the_run_and_no_node_limit_takes_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """It is given nodes of its own (the policy's ``guided_nodes_per_conflict`` for each of
    the run's conflicts, at least ``guided_min_nodes``, at most GUIDED_NODES), work of its
    own (``guided_share`` of the run's conflicts in work, at least ``guided_min_work``) and
    the deadline, no end by the clock (was a share of the run's time: the same run on every
    machine now); under a node limit it does not run (its nodes are not Kissat's conflicts),
    unless asked to (``guided_always``: auto's turns, where the limit is the turn's)."""
    monkeypatch.setattr(_program, "nearby", lambda *_a, **_k: iter(()))
    ends: list[tuple[float | None, int, int | None]] = []
    around = Guided.around

    def spy(self: Guided, solution: Grid, seen: object, deadline: float | None = None,
            max_nodes: int = GUIDED_NODES, max_work: int | None = None) -> object:
        ends.append((deadline, max_nodes, max_work))
        return around(self, solution, seen, deadline, max_nodes,  # type: ignore[arg-type]
                      max_work)
    monkeypatch.setattr(Guided, "around", spy)
    started = time.perf_counter()
    result = kissat.analyse(five_rooks(), 2, SearchLimits(timeout=60))
    assert len(set(result.solutions)) == 2 and ends
    assert all(d is not None and started < d
               and DEFAULT_POLICY.guided_min_nodes <= n <= GUIDED_NODES
               and w is not None and w >= DEFAULT_POLICY.guided_min_work for d, n, w in ends)
    ends.clear()
    seven = dataclasses.replace(DEFAULT_POLICY, guided_min_nodes=7, guided_nodes_per_conflict=0,
                                guided_min_work=1234, guided_share=0)
    result = kissat.analyse(five_rooks(), 2, SearchLimits(timeout=60), policy=seven)
    assert len(set(result.solutions)) == 2 and ends
    assert all((n, w) == (7, 1234) for _, n, w in ends)
    ends.clear()
    result = kissat.analyse(five_rooks(), 200, SearchLimits(max_nodes=10**6))
    assert not ends and result.stats["guided"] == 0 and len(result.solutions) == 120
    stats: dict[str, int] = {}
    every = list(kissat.solutions(five_rooks(), SearchLimits(max_nodes=10**6), stats=stats,
                                  guided_always=True))
    assert ends and stats["guided"] > 0
    assert len(set(every)) == len(every) == 120 and all(is_solution(five_rooks(), g)
                                                        for g in every)
