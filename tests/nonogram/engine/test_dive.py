"""Belief propagation (bp.c) and the dive it drives (``Team.dive``, auto's first dive).

BP only orders a search, so the tests check two things apart: its line factor against
brute-force enumeration, and that a search branching by it (``_core.ORDER_BP``) and the dive
stay exact (every solution, each checked; the same sets as another rule and as brute force).
The dive's purpose, a first solution of a random puzzle at once, is checked on the issue's
hardest random 50x50 (deterministic: no clock is involved)."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gridsolve.nonogram.engine._core as _core
from gridsolve.nonogram.backends import auto
from gridsolve.nonogram import engine
from gridsolve.nonogram.engine import SearchLimits, Team
from gridsolve.nonogram.engine.team import dives
from gridsolve.nonogram.generate import random_grid
from gridsolve.nonogram.model import Puzzle, clue_of, is_solution, puzzle_from_grid
from gridsolve.nonogram.policy import DEFAULT_POLICY, WORK_PER_SECOND, Policy
from tests.nonogram.oracle import all_solutions


def _brute_marginals(clue: tuple[int, ...], probs: list[float]) -> list[float] | None:
    """P(cell filled | the line fits the clue), every line of the length enumerated."""
    n = len(probs)
    weight = 0.0
    filled = [0.0] * n
    for cells in itertools.product((0, 1), repeat=n):
        if clue_of("".join("#" if v else "." for v in cells)) != clue:
            continue
        w = math.prod(p if v else 1 - p for v, p in zip(cells, probs))
        weight += w
        for i, v in enumerate(cells):
            filled[i] += w * v
    return None if weight == 0.0 else [f / weight for f in filled]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([0.0, 1.0, 0.5, 0.1, 0.9, 0.3, 1e-4]), min_size=1, max_size=9),
       st.data())
def test_line_marginals_match_brute_force(probs: list[float], data: st.DataObject) -> None:
    n = len(probs)
    picture = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    clue = clue_of("".join("#" if v else "." for v in picture))
    expected = _brute_marginals(clue, probs)
    got = _core.line_marginals(clue, probs)
    if expected is None:
        assert got is None
    else:
        assert got is not None and got == pytest.approx(expected, abs=1e-9)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([0.0, 1.0, 0.5, 0.2, 0.7, 1e-4, 1e-12, 1e-20]), min_size=1,
                max_size=10),
       st.lists(st.integers(1, 4), max_size=4))
def test_line_marginals_of_any_clue_match_brute_force(probs: list[float],
                                                      blocks: list[int]) -> None:
    """Clues that fit tightly or loosely, under priors by which nothing may fit, and priors
    as small as 1e-20 (the factor only visits the band of states that can carry weight:
    known cells and the clue's length narrow it)."""
    if sum(blocks) + len(blocks) - 1 > len(probs):
        return  # (refused: a clue that does not fit its line)
    expected = _brute_marginals(tuple(blocks), probs)
    got = _core.line_marginals(blocks, probs)
    if expected is None:
        assert got is None
    else:
        assert got is not None and got == pytest.approx(expected, rel=1e-6, abs=1e-9)


def test_line_marginals_refuse_bad_probabilities() -> None:
    with pytest.raises(ValueError):
        _core.line_marginals([1], [1.5])
    with pytest.raises(ValueError):
        _core.line_marginals([1], [float("nan")])
    assert _core.line_marginals([2], [0.0, 1.0, 0.0]) is None


def _random_puzzle(size: int, seed: int) -> Puzzle:
    return puzzle_from_grid(random_grid(size, size, 0.5, random.Random(seed)))


def _every(core: _core.Search, puzzle: Puzzle) -> set[tuple[str, ...]]:
    found = []
    while core.next() == _core.SOLUTION:
        data = core.grid().decode("ascii")
        found.append(tuple(data[i:i + puzzle.width] for i in range(0, len(data), puzzle.width)))
    assert len(found) == len(set(found))
    return set(found)


@pytest.mark.parametrize("probing", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_bp_search_finds_the_same_solutions_as_another_rule(seed: int, probing: bool) -> None:
    """Random 9x9 pictures have several solutions: the bp rule's search and the loose rule's
    enumerate the same set (and brute force that of a 5x5)."""
    puzzle = _random_puzzle(9, seed)
    bp = _every(_core.Search(puzzle.rows, puzzle.cols, probing, None, False, _core.ORDER_BP),
                puzzle)
    loose = _every(_core.Search(puzzle.rows, puzzle.cols, True, None, False,
                                _core.ORDER_LOOSE), puzzle)
    assert bp == loose and all(is_solution(puzzle, g) for g in bp)
    small = _random_puzzle(5, seed)  # and brute force on a smaller one
    assert _every(_core.Search(small.rows, small.cols, probing, None, False, _core.ORDER_BP),
                  small) == all_solutions(small)


@pytest.mark.parametrize("share", [0.3, 1.0])
@pytest.mark.parametrize("seed", range(6))
def test_bp_search_probing_near_the_bottom_finds_every_solution(seed: int, share: float) -> None:
    """The dive's search probes only where at most ``probe_share`` of the cells are open
    (the policy's ``dive_probe_share``): it still enumerates every solution (brute force on a 5x5, the
    loose rule's search on a 9x9), and it does probe (1.0: at every node, from the root,
    where the lines alone leave cells open)."""
    small = _random_puzzle(5, seed)
    assert _every(_core.Search(small.rows, small.cols, False, None, False, _core.ORDER_BP,
                               probe_share=share), small) == all_solutions(small)
    puzzle = _random_puzzle(9, seed)
    core = _core.Search(puzzle.rows, puzzle.cols, False, None, False, _core.ORDER_BP,
                        probe_share=share)
    loose = _every(_core.Search(puzzle.rows, puzzle.cols, True, None, False,
                                _core.ORDER_LOOSE), puzzle)
    assert _every(core, puzzle) == loose
    plain = _core.Search(puzzle.rows, puzzle.cols, False, None, False, _core.ORDER_BP)
    _every(plain, puzzle)
    assert plain.stats()["probes"] == 0
    if share == 1.0 and len(loose) > 1:  # (a unique 9x9 here is solved by its lines alone)
        assert core.stats()["probes"] > 0


@pytest.mark.parametrize("share", [-0.1, 1.5, float("nan"), float("inf")])
def test_probe_share_out_of_range_is_refused(share: float) -> None:
    with pytest.raises(ValueError, match="probe_share"):
        _core.Search([[1]], [[1]], False, None, False, _core.ORDER_BP, probe_share=share)


def test_the_dive_walks_to_a_first_solution_of_the_hardest_random_50x50() -> None:
    """rand50-6 of the benchmark (Kissat needs about 100,000 conflicts, the team finds none
    in 60 s): belief propagation's descent reaches a solution with no failed node."""
    puzzle = puzzle_from_grid(tuple(
        "".join("#" if rng.random() < 0.5 else "." for _ in range(50))
        for rng in [random.Random(50 * 1000 + 6)] for _ in range(50)))
    team = Team(puzzle, 2)
    assert not team.dive(max_fails=20) or team.found
    assert team.found and all(is_solution(puzzle, g) for g in team.found)
    stats = team.stats()
    assert stats["dive_found"] >= 1 and stats["dive_nodes"] == team.nodes()


def _swapped(seed: int) -> Puzzle:
    """A random 12x12 picture's clues with columns 1 and 6 swapped: often no solution, and
    the dive fails before it knows (so it restarts)."""
    p = _random_puzzle(12, seed)
    cols = list(p.cols)
    cols[0], cols[5] = cols[5], cols[0]
    return Puzzle(p.rows, cols)


@pytest.mark.parametrize("puzzle,restarts", [
    *[(_random_puzzle(6, seed), False) for seed in (5, 17, 26, 33)],  # 4, 12, 3, 4 solutions
    # (seeds picked because the dive restarts on them: pick others if the bp rule changes)
    *[(_swapped(seed), True) for seed in (3997, 324, 447)]])  # 4, 0, 0 solutions
def test_an_exhausted_dive_has_every_solution(puzzle: Puzzle, restarts: bool) -> None:
    """Restarts keep the nogoods of the runs before, so the dive is one complete search:
    run to the end (restarting after every failed node until a first solution), its pool is
    every solution (brute force on the 6x6, another rule's search on the 12x12)."""
    team = Team(puzzle, 10_000, policy=dataclasses.replace(DEFAULT_POLICY, dive_restart_fails=1))
    assert team.dive()
    assert team.complete and (team.stats()["dive_restarts"] >= 2) == restarts
    if puzzle.width <= 6:
        expected = all_solutions(puzzle)
    else:
        expected = _every(_core.Search(puzzle.rows, puzzle.cols, True, None, False,
                                       _core.ORDER_LOOSE), puzzle)
    assert set(team.found) == expected


def test_the_dive_keeps_a_node_limit() -> None:
    puzzle = _random_puzzle(40, 7)
    team = Team(puzzle, 2)
    assert not team.dive(SearchLimits(max_nodes=30))
    assert team.nodes() <= 30


def test_auto_dives_on_large_puzzles_only() -> None:
    """auto's first dive comes after the team's first turn on puzzles of more than the
    policy's ``small_cells`` cells; tournament-sized puzzles (25x25) are the team's alone."""
    assert dives(_random_puzzle(40, 0)) and not dives(_random_puzzle(25, 0))
    puzzle = puzzle_from_grid(tuple(
        "".join("#" if rng.random() < 0.5 else "." for _ in range(50))
        for rng in [random.Random(50 * 1000 + 6)] for _ in range(50)))
    result = auto.analyse(puzzle, 2, SearchLimits(timeout=60))
    assert result.status == "multiple" and result.stats.get("dive_found", 0) >= 1
    assert all(is_solution(puzzle, g) for g in result.solutions)


def test_jobs_dive_before_starting_processes() -> None:
    """--jobs takes the same first dive as auto, in this process, before it forks: the
    benchmark's rand50-6 ends there."""
    from gridsolve.nonogram.backends import parallel
    if not parallel.can_fork():
        pytest.skip("no fork()")
    puzzle = puzzle_from_grid(tuple(
        "".join("#" if rng.random() < 0.5 else "." for _ in range(50))
        for rng in [random.Random(50 * 1000 + 6)] for _ in range(50)))
    result = parallel.analyse(puzzle, 2, SearchLimits(timeout=60), jobs=2)
    assert result.status == "multiple" and all(is_solution(puzzle, g) for g in result.solutions)
    assert "jobs" not in result.stats  # (no process was started)


#: The first dive left out (``dive_first_fails`` 0), so that ``parallel``'s processes start.
NO_FIRST_DIVE = dataclasses.replace(DEFAULT_POLICY, dive_first_fails=0)


def _spy_on_dive_workers(monkeypatch: pytest.MonkeyPatch) -> list[Puzzle]:
    """The puzzles ``parallel`` makes a dive worker for, from now on (pass NO_FIRST_DIVE to
    ``parallel.analyse``, so that the processes start)."""
    from gridsolve.nonogram.backends import parallel
    made: list[Puzzle] = []
    real = parallel._team_worker

    def team_worker(team: Team, limits: SearchLimits, dive: bool = False):  # type: ignore[no-untyped-def]
        if dive:
            made.append(team.puzzle)
        return real(team, limits, dive)
    monkeypatch.setattr(parallel, "_team_worker", team_worker)
    return made


@pytest.mark.heavy
def test_jobs_give_the_dive_a_process_beside_kissat(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a puzzle auto hands to Kissat and dives on (a random 64x64), --jobs 2 runs Kissat
    and the dive side by side, as auto gives them turns: two checked solutions."""
    from gridsolve.nonogram.backends import kissat, parallel
    if not parallel.can_fork() or not kissat.installed():
        pytest.skip("no fork() or no kissat")
    made = _spy_on_dive_workers(monkeypatch)
    puzzle = _random_puzzle(64, 2)
    result = parallel.analyse(puzzle, 2, SearchLimits(timeout=120), jobs=2,
                              policy=NO_FIRST_DIVE)
    assert result.status == "multiple" and len(set(result.solutions)) == 2
    assert all(is_solution(puzzle, g) for g in result.solutions)
    assert made == [puzzle] and result.stats["jobs"] == 2


def test_native_dives_beside_the_team() -> None:
    """The native engine alone (``engine.analyse``, ``--method native``) gives the dive turns
    beside the team on the puzzles it is for: the benchmark's rand50-6, which the team alone
    does not end in 60 s, ends by the dive's solution and local moves next to it."""
    puzzle = _rand50_6()
    result = engine.analyse(puzzle, 2, SearchLimits(timeout=60))
    assert result.status == "multiple" and result.stats["dive_found"] >= 1
    assert len(set(result.solutions)) == 2
    assert all(is_solution(puzzle, g) for g in result.solutions)


def _rand50_6() -> Puzzle:
    """The benchmark's rand50-6: the team alone does not end it in 60 s, the dive at once."""
    return puzzle_from_grid(tuple(
        "".join("#" if rng.random() < 0.5 else "." for _ in range(50))
        for rng in [random.Random(50 * 1000 + 6)] for _ in range(50)))


@pytest.mark.heavy
def test_native_without_the_dive_under_a_node_limit_or_when_asked() -> None:
    """A node limit keeps the native engine to the team, as before (the node limit is the
    team's, counted over all its searches); so does ``dive=False``; and puzzles of at most
    the policy's ``dive_min_cells`` cells never dive."""
    puzzle = _rand50_6()
    limited = engine.analyse(puzzle, 2, SearchLimits(max_nodes=300))
    assert limited.status == "unknown" and "dive_nodes" not in limited.stats
    alone = engine.analyse(puzzle, 2, SearchLimits(timeout=1), dive=False)
    assert alone.status == "unknown" and "dive_nodes" not in alone.stats
    small = _random_puzzle(32, 1)  # 1024 cells: the team's
    assert not dives(small) and "dive_nodes" not in engine.analyse(small, 2).stats


def test_team_solve_says_true_only_when_the_answer_is_known() -> None:
    """``Team.solve`` stopped by its time limit says False (the answer is not known)."""
    team = Team(_rand50_6(), 2)
    assert not team.solve(SearchLimits(timeout=0.05)) and team.result().status == "unknown"
    assert Team(_rand50_6(), 2).solve(SearchLimits(timeout=60))


def _short_turns(share_seconds: float) -> Policy:
    """The team's first turn shrunk to nothing and the turns after the first dive to the
    work of ``share_seconds`` (was the clock's turn: TURNS_FIRST 0, TURNS_SHARE seconds)."""
    return dataclasses.replace(DEFAULT_POLICY, turns_first=0,
                               turns_share=int(share_seconds * WORK_PER_SECOND))


@pytest.mark.parametrize("seed,solutions", [(1, 36), (3, 8), (9, 16)])
def test_native_turns_count_exactly(seed: int, solutions: int) -> None:
    """Counted by the team and the dive in many short turns (the first turns shrunk to
    nothing), the pool is every solution of a random 33x33 (1,089 cells) once the first
    search to be exhausted says so: the same set as another rule's search enumerates."""
    puzzle = _random_puzzle(33, seed)
    assert dives(puzzle)
    expected = _every(_core.Search(puzzle.rows, puzzle.cols, True, None, False,
                                   _core.ORDER_LOOSE), puzzle)
    result = engine.analyse(puzzle, 64, SearchLimits(timeout=60), policy=_short_turns(1e-4))
    assert len(expected) == solutions and set(result.solutions) == expected
    assert result.exhausted and result.stats["dive_nodes"] > 0


@pytest.mark.heavy
@pytest.mark.parametrize("seed", [1, 3, 9])
def test_native_turns_count_exactly_when_the_dive_ends_it(seed: int,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The same, with the team's turns doing nothing: the dive is the search exhausted, and
    its pool (local moves' solutions with it) is every solution."""
    monkeypatch.setattr(Team, "run", lambda self, limits=None, work=None: False)
    puzzle = _random_puzzle(33, seed)
    expected = _every(_core.Search(puzzle.rows, puzzle.cols, True, None, False,
                                   _core.ORDER_LOOSE), puzzle)
    team = Team(puzzle, 64, policy=dataclasses.replace(
        DEFAULT_POLICY, turns_share=int(1e-3 * WORK_PER_SECOND)))
    assert team.solve(SearchLimits(timeout=60))
    assert team.complete and set(team.found) == expected
    assert team.stats()["dive_nodes"] == team.nodes()


@pytest.mark.heavy
def test_native_jobs_give_the_dive_a_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--method native --jobs 2`` on a puzzle the dive is for: the team and the dive side
    by side, as the native engine gives them turns on one core; two checked solutions."""
    from gridsolve.nonogram.backends import parallel
    if not parallel.can_fork():
        pytest.skip("no fork()")
    made = _spy_on_dive_workers(monkeypatch)
    puzzle = _rand50_6()  # (the team alone does not end it in 60 s)
    result = parallel.analyse(puzzle, 2, SearchLimits(timeout=30), jobs=2, with_sat=False,
                              policy=NO_FIRST_DIVE)
    assert result.status == "multiple" and len(set(result.solutions)) == 2
    assert all(is_solution(puzzle, g) for g in result.solutions)
    assert made == [puzzle] and result.stats["jobs"] == 2


@pytest.mark.heavy
def test_auto_jobs_without_sat_give_the_dive_a_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--jobs 2`` auto where no SAT process runs (python-sat missing, or its model over the
    memory limit): the team and the dive, as auto's fallback to the native engine on one
    core has them."""
    from gridsolve.nonogram.backends import parallel
    if not parallel.can_fork():
        pytest.skip("no fork()")
    monkeypatch.setattr(parallel, "_syrup_for", lambda *args, **kwargs: False)
    monkeypatch.setattr(parallel, "_sat_side", lambda *args, **kwargs: [])
    made = _spy_on_dive_workers(monkeypatch)
    puzzle = _rand50_6()
    result = parallel.analyse(puzzle, 2, SearchLimits(timeout=30), jobs=2, policy=NO_FIRST_DIVE)
    assert result.status == "multiple" and all(is_solution(puzzle, g) for g in result.solutions)
    assert made == [puzzle] and result.stats["jobs"] == 2
