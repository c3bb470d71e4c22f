"""The native engine against independent oracles."""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolve.errors import LimitReached
from gridsolve.nonogram import engine, reference
from gridsolve.nonogram.engine import SearchLimits, analyse
from gridsolve.nonogram.engine.cores import BLACK_AND_WHITE, checked_grid
from gridsolve.nonogram.model import Puzzle, is_solution, puzzle_from_grid
from gridsolve.nonogram.policy import DEFAULT_POLICY
from tests.nonogram.cases import CASES
from tests.nonogram.oracle import all_solutions

def dp_solve_line(clue: tuple[int, ...], line: str) -> str | None:
    return engine.solve_line(clue, line, bits=False)


#: the bit-parallel solver (lines up to 63 cells), the byte DP, and the plain-Python reference
LINE_SOLVERS = [engine.solve_line, dp_solve_line, reference.solve_line]
LINE_IDS = ["bits", "dp", "reference"]


@st.composite
def clue_and_line(draw: st.DrawFn, max_len: int = 30) -> tuple[tuple[int, ...], str]:
    """A line length, a clue from a random full line, and a partial line (maybe inconsistent)."""
    n = draw(st.integers(1, max_len))
    truth = "".join(draw(st.sampled_from("#.")) for _ in range(n))
    clue = tuple(len(run) for run in truth.split(".") if run)
    # reveal some cells of the truth, and sometimes corrupt one so contradictions are tested
    known = [c if draw(st.booleans()) else "?" for c in truth]
    if draw(st.integers(0, 3)) == 0:
        i = draw(st.integers(0, n - 1))
        known[i] = draw(st.sampled_from("#."))
    return clue, "".join(known)


@pytest.mark.heavy
@pytest.mark.parametrize("solve_line", LINE_SOLVERS, ids=LINE_IDS)
@settings(max_examples=250, deadline=None)
@given(clue_and_line())
def test_line_solver_matches_brute_force(solve_line, case) -> None:  # type: ignore[no-untyped-def]
    clue, line = case
    assert solve_line(clue, line) == reference.brute_force_line(clue, line)


@pytest.mark.heavy
@settings(max_examples=300, deadline=None)
@given(clue_and_line(max_len=70))
def test_long_lines_agree_with_reference(case: tuple[tuple[int, ...], str]) -> None:
    """Around the 63-cell word boundary (where the search switches solvers), all three agree."""
    clue, line = case
    expected = reference.solve_line(clue, line)
    assert engine.solve_line(clue, line) == expected
    assert dp_solve_line(clue, line) == expected


@pytest.mark.heavy
@settings(max_examples=300, deadline=None)
@given(clue_and_line(max_len=140))
def test_two_word_lines_agree_with_reference(case: tuple[tuple[int, ...], str]) -> None:
    """Around the 127-cell boundary of the two-word bit solver (lines of 64-127 cells in a
    puzzle wider than a bitboard), the bit solvers, the dynamic programme and the reference
    agree."""
    clue, line = case
    expected = reference.solve_line(clue, line)
    assert engine.solve_line(clue, line) == expected
    assert dp_solve_line(clue, line) == expected


@settings(max_examples=250, deadline=None)
@given(clue_and_line(max_len=16))
def test_line_shares_match_brute_force(case: tuple[tuple[int, ...], str]) -> None:
    """The counts behind the likely/sure branching rules: each cell's filled share among
    the arrangements that fit, against enumerating them."""
    clue, line = case
    fits = [a for a in reference.arrangements(clue, len(line))
            if all(k == "?" or k == c for k, c in zip(line, a))]
    shares = engine.line_shares(clue, line)
    if not fits:
        assert shares is None
        return
    assert shares is not None and len(shares) == len(line)
    for i, share in enumerate(shares):
        assert share == pytest.approx(sum(a[i] == "#" for a in fits) / len(fits), abs=1e-9)


def test_line_shares_of_long_lines_stay_in_range() -> None:
    """Counts past 2^64 (10^96 ways for 100 1s in 500 cells) still give shares, in [0, 1];
    past 10^300 there are none (the rules then go by the probes alone)."""
    shares = engine.line_shares((1,) * 100, "?" * 500)
    assert shares is not None and all(0.0 <= x <= 1.0 for x in shares)
    assert shares[0] == pytest.approx(shares[-1])  # the count is symmetric
    assert sum(shares) == pytest.approx(100)  # a hundred filled cells in every arrangement
    assert engine.line_shares((1,) * 400, "?" * 2000) is None
    assert engine.line_shares((3,), "?" * 5) == pytest.approx((1 / 3, 2 / 3, 1.0, 2 / 3, 1 / 3))


@pytest.mark.parametrize("clue,line,expected", [
    ((3, 1), "??????", "?##???"),
    ((5,), "???????", "??###??"),
    ((), "???", "..."),
    ((3,), "###", "###"),
    ((2,), "#.?", None),
    ((1, 1), "?#?", None),
    ((2, 2), "??.??", "##.##"),
    ((1,), "..#..", "..#.."),
])
@pytest.mark.parametrize("solve_line", LINE_SOLVERS, ids=LINE_IDS)
def test_line_solver_table(solve_line, clue, line, expected) -> None:  # type: ignore[no-untyped-def]
    assert solve_line(clue, line) == expected


PATHS: dict[str, dict[str, Any]] = {
    "implication probing": dict(probing=True),
    "plain probing": dict(probing=True, implications=False),
    "propagation only": dict(probing=False),
}


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name,puzzle,n,solution", CASES, ids=[c[0] for c in CASES])
def test_case_table(path, name, puzzle, n, solution) -> None:  # type: ignore[no-untyped-def]
    result = analyse(puzzle, max_solutions=100, **PATHS[path])
    assert len(result.solutions) == n
    assert len(set(result.solutions)) == n
    assert set(result.solutions) == all_solutions(puzzle)
    assert result.status == {0: "none", 1: "unique"}.get(n, "multiple")
    if solution is not None:
        assert result.solutions[0] == solution


@st.composite
def small_grids(draw: st.DrawFn, max_w: int = 5, max_h: int = 4) -> tuple[str, ...]:
    w = draw(st.integers(1, max_w))
    h = draw(st.integers(1, max_h))
    return tuple("".join(draw(st.sampled_from("#."))for _ in range(w)) for _ in range(h))


@settings(max_examples=300, deadline=None)
@given(small_grids(), st.sampled_from(list(PATHS)))
def test_counts_equal_brute_force(grid, path) -> None:  # type: ignore[no-untyped-def]
    """Random grid -> clues -> every solution found, exactly, on grids up to 5x4 and 4x5."""
    for g in (grid, tuple("".join(col) for col in zip(*grid))):
        puzzle = puzzle_from_grid(g)
        expected = all_solutions(puzzle)
        result = analyse(puzzle, max_solutions=10_000, **PATHS[path])
        assert set(result.solutions) == expected
        assert len(result.solutions) == len(expected)
        assert g in expected


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 25), st.integers(5, 25), st.floats(0.2, 0.8), st.integers(0, 2**32))
def test_random_grid_is_solved(w, h, density, seed) -> None:  # type: ignore[no-untyped-def]
    """Random grid -> clues -> solve -> every solution satisfies the clues; the picture is one."""
    rng = random.Random(seed)
    grid = tuple("".join("#" if rng.random() < density else "." for _ in range(w))
                 for _ in range(h))
    puzzle = puzzle_from_grid(grid)
    result = analyse(puzzle, max_solutions=2)
    assert result.status in ("unique", "multiple")
    assert all(is_solution(puzzle, s) for s in result.solutions)
    if result.status == "unique":
        assert result.solutions == (grid,)
    else:
        assert len(set(result.solutions)) == 2


@settings(max_examples=60, deadline=None)
@given(st.integers(6, 12), st.floats(0.3, 0.7), st.integers(0, 2**32))
def test_implication_probing_agrees_with_propagation_only(n, density, seed) -> None:  # type: ignore[no-untyped-def]
    """A second method on grids too big for brute force: the same solution sets (below 30)."""
    rng = random.Random(seed)
    puzzle = puzzle_from_grid(["".join("#" if rng.random() < density else "." for _ in range(n))
                               for _ in range(n)])
    plain = analyse(puzzle, 30, probing=False)
    for other in (analyse(puzzle, 30), analyse(puzzle, 30, implications=False)):
        assert other.status == plain.status
        if plain.status == "multiple" and len(plain.solutions) == 30:
            assert len(other.solutions) == 30  # different first 30 of many: all checked anyway
        else:
            assert set(other.solutions) == set(plain.solutions)


def test_implication_probing_fixes_more_at_the_root() -> None:
    """On this 14x14 picture, the contrapositives of the probes fix cells plain probing cannot,
    and each of them holds in every solution."""
    rng = random.Random(116)
    rng.randint(8, 14)
    puzzle = puzzle_from_grid(["".join(rng.choice("#.") for _ in range(14)) for _ in range(14)])
    strong = analyse(puzzle, 2)
    plain = analyse(puzzle, 2, implications=False)
    known = [(r, c) for r, row in enumerate(strong.partial) for c, ch in enumerate(row) if ch != "?"]
    assert len(known) > sum(ch != "?" for row in plain.partial for ch in row)
    assert strong.stats["implied_fixes"] > 0
    every = analyse(puzzle, 100_000, probing=False)
    assert every.status == "multiple" and len(every.solutions) < 100_000
    for r, c in known:
        assert all(g[r][c] == strong.partial[r][c] for g in every.solutions)
    for r, row in enumerate(plain.partial):  # plain probing's cells are a subset
        assert all(ch in ("?", strong.partial[r][c]) for c, ch in enumerate(row))


@settings(max_examples=120, deadline=None)
@given(st.integers(5, 14), st.floats(0.3, 0.7), st.integers(1, 5), st.integers(0, 2**32),
       st.sampled_from([1, 50]), st.sampled_from([0, 1, 3, 300]), st.sampled_from([1, 2, 100]))
def test_team_of_searches_agrees_with_one(n, density, count, seed, slice_nodes,  # type: ignore[no-untyped-def]
                                          join, restart) -> None:
    """analyse's team of searches (its branching rules in turns, the first restarting with
    nogoods) against a single search."""
    rng = random.Random(seed)
    puzzle = puzzle_from_grid(["".join("#" if rng.random() < density else "." for _ in range(n))
                               for _ in range(n)])
    # slice 1: turns after every node; join 0 or 1: the others join after the first turn;
    # restart 1: the first search's runs are 1, 1, 2, 1, 1, 2, 4, ... nodes
    team = analyse(puzzle, count, policy=dataclasses.replace(
        DEFAULT_POLICY, team_slice=slice_nodes, team_join_nodes=join, team_restart_base=restart))
    one = analyse(puzzle, count, team=False)
    assert team.status == one.status
    assert len(team.solutions) == len(one.solutions) == len(set(team.solutions))
    assert all(is_solution(puzzle, g) for g in team.solutions)
    if len(one.solutions) < count:  # the whole solution set: it must be the same
        assert set(team.solutions) == set(one.solutions)


def test_team_turns_are_taken() -> None:
    """With one-node turns, the team starts its other searches and pools them; before the
    first search has run the policy's ``team_join_nodes``, it runs alone."""
    one_node = dataclasses.replace(DEFAULT_POLICY, team_slice=1)
    puzzle = Puzzle([[1]] * 6, [[1]] * 6)  # the 6x6 permutation matrices: 720 solutions
    result = analyse(puzzle, 60, policy=one_node)
    assert result.status == "multiple" and len(set(result.solutions)) == 60
    assert result.stats["searches"] == 1
    joined = dataclasses.replace(one_node, team_join_nodes=1)
    result = analyse(puzzle, 60, policy=joined)
    assert result.status == "multiple" and len(set(result.solutions)) == 60
    result = analyse(Puzzle([[1, 1]] * 7, [[1, 1]] * 7), 3, policy=joined)
    assert result.stats["searches"] == len(engine.team.TEAM_ORDERS)
    assert analyse(puzzle, 721).solutions.__len__() == 720  # beyond the team's cap: one search


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.floats(0.2, 0.8), st.integers(0, 2**32),
       st.sampled_from([0, 1, 2, 3, 4]), st.booleans(), st.booleans())
def test_every_branching_rule_enumerates_exactly(h, w, density, seed, order,  # type: ignore[no-untyped-def]
                                                 probing, weights) -> None:
    """Each branching rule alone is a complete search: every solution, once (brute force)."""
    rng = random.Random(seed)
    puzzle = puzzle_from_grid(["".join("#" if rng.random() < density else "." for _ in range(w))
                               for _ in range(h)])
    core = engine._core.Search(puzzle.rows, puzzle.cols, probing, None, True, order, weights)
    got = []
    while core.next() == engine._core.SOLUTION:
        got.append(checked_grid(BLACK_AND_WHITE, puzzle, core.grid()))
    assert sorted(got) == sorted(all_solutions(puzzle))


@pytest.mark.parametrize("order", [0, 1, 2, 3, 4])
def test_conflict_weights_change_the_tree_not_the_solutions(order: int) -> None:
    """A random 15x15 picture searched with propagation alone, so that nodes fail: with and
    without the conflict weights, each rule finds the same 14 solutions as SAT does (a second
    method), by a different tree."""
    pytest.importorskip("pysat")
    from gridsolve.nonogram.backends import sat
    rng = random.Random(5)
    puzzle = puzzle_from_grid(["".join(rng.choice("#.") for _ in range(15)) for _ in range(15)])
    found, nodes = [], []
    for weights in (True, False):
        core = engine._core.Search(puzzle.rows, puzzle.cols, False, None, False, order, weights)
        got = set()
        while core.next() == engine._core.SOLUTION:
            got.add(checked_grid(BLACK_AND_WHITE, puzzle, core.grid()))
        found.append(got)
        nodes.append(core.stats()["nodes"])
    expected = set(sat.analyse(puzzle, 100).solutions)
    assert found[0] == found[1] == expected and len(expected) == 14
    assert all(is_solution(puzzle, g) for g in expected)
    assert nodes[0] != nodes[1]


def test_branching_rule_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="order must be"):
        engine._core.Search([[1]], [[1]], True, None, True, 6)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.floats(0.2, 0.8), st.integers(0, 2**32),
       st.sampled_from([0, 2, 3, 4, 5]), st.booleans(), st.integers(1, 4), st.integers(1, 2**20))
def test_restarts_with_nogoods_enumerate_exactly(h, w, density, seed, order,  # type: ignore[no-untyped-def]
                                                probing, every, jitter) -> None:
    """Restarting every few nodes (growing), with the nogoods of the runs kept, the runs
    together are one complete search: every solution once, no repeats (brute force)."""
    rng = random.Random(seed)
    puzzle = puzzle_from_grid(["".join("#" if rng.random() < density else "." for _ in range(w))
                               for _ in range(h)])
    core = engine._core.Search(puzzle.rows, puzzle.cols, probing, None, True, order, True,
                               nogoods=True)
    got: list[tuple[str, ...]] = []
    for run in range(1, 10_000):
        code = core.next(core.stats()["nodes"] + every * run)
        if code == engine._core.SOLUTION:
            got.append(checked_grid(BLACK_AND_WHITE, puzzle, core.grid()))
        elif code == engine._core.EXHAUSTED:
            break
        assert core.restart(jitter + run if run % 2 else 0)
    assert len(got) == len(set(got))
    assert sorted(got) == sorted(all_solutions(puzzle))


def test_restarts_with_nogoods_learn_what_was_refuted() -> None:
    """A 15x15 picture searched with propagation alone and restarted after 5, 10, 15 ...
    nodes: the runs record nogoods, and still find exactly the 14 solutions SAT finds. (The
    runs must grow: a run too short to refute any guess learns nothing.)"""
    pytest.importorskip("pysat")
    from gridsolve.nonogram.backends import sat
    rng = random.Random(5)
    puzzle = puzzle_from_grid(["".join(rng.choice("#.") for _ in range(15)) for _ in range(15)])
    core = engine._core.Search(puzzle.rows, puzzle.cols, False, None, False, 4, True, nogoods=True)
    got: set[tuple[str, ...]] = set()
    for run in range(1, 10_000):
        code = core.next(core.stats()["nodes"] + 5 * run)
        if code == engine._core.SOLUTION:
            grid = checked_grid(BLACK_AND_WHITE, puzzle, core.grid())
            assert grid not in got
            got.add(grid)
        elif code == engine._core.EXHAUSTED:
            break
        core.restart(0)
    assert got == set(sat.analyse(puzzle, 100).solutions) and len(got) == 14
    stats = core.stats()
    assert stats["nogoods"] > 0 and stats["nogood_units"] > 0


def test_node_limit_pauses_and_the_search_goes_on() -> None:
    """next() after a node limit resumes where it stood: the same solutions, in order."""
    puzzle = Puzzle([[1]] * 5, [[1]] * 5)
    whole = engine._core.Search(puzzle.rows, puzzle.cols)
    expected = []
    while whole.next() == engine._core.SOLUTION:
        expected.append(whole.grid())
    stepped = engine._core.Search(puzzle.rows, puzzle.cols)
    got, limit, code = [], 1, None
    while code != engine._core.EXHAUSTED:
        code = stepped.next(limit)
        if code == engine._core.SOLUTION:
            got.append(stepped.grid())
        elif code == engine._core.LIMIT:
            limit += 1
    assert got == expected and len(got) == 120


def test_team_first_search_restarts_and_stays_exact() -> None:
    """The first search restarts on its Luby schedule until a solution is found, and its
    nogoods keep the count exact: every solution of a puzzle with many, and none twice."""
    # (join 10**9: the first search alone)
    policy = dataclasses.replace(DEFAULT_POLICY, team_restart_base=1, team_join_nodes=10**9)
    rng = random.Random(7)
    for _ in range(20):
        puzzle = puzzle_from_grid(["".join("#" if rng.random() < 0.5 else "." for _ in range(9))
                                   for _ in range(9)])
        want = set(engine.solve(puzzle))
        result = analyse(puzzle, 64, policy=policy)
        assert set(result.solutions) == want and len(result.solutions) == len(want)
        assert result.status == ("unique" if len(want) == 1 else "multiple")
    puzzle = Puzzle([[1]] * 7, [[1]] * 7)  # 5,040 solutions, the first at depth 6
    result = analyse(puzzle, 64, policy=policy)
    assert result.stats["restarts"] >= 2 and len(set(result.solutions)) == 64


def test_team_honours_node_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    from gridsolve.nonogram.engine import team
    monkeypatch.setattr(team, "moves_for_count", lambda *a, **k: [])  # the search finds every solution
    puzzle = Puzzle([[1]] * 8, [[1]] * 8)  # 40,320 solutions, a few nodes each
    result = analyse(puzzle, 50, SearchLimits(max_nodes=30))
    assert 30 <= result.nodes <= 32 and 2 <= len(result.solutions) < 50
    assert result.status == "multiple"  # two are proof enough, though the count stopped short
    more = analyse(puzzle, 50, SearchLimits(max_nodes=400))
    assert more.status == "multiple" and more.nodes <= 400 and len(set(more.solutions)) == 50


def test_solutions_are_generated_lazily() -> None:
    puzzle = Puzzle([[1]] * 6, [[1]] * 6)  # 720 solutions (permutation matrices)
    gen = engine.solve(puzzle)
    first = next(gen)
    assert is_solution(puzzle, first)
    assert engine.count(puzzle) == 720
    assert engine.count(puzzle, limit=5) == 5
    assert not engine.unique(puzzle)
    assert engine.first(Puzzle([[2], [0]], [[1], [0], [1]])) is None


def test_node_limit_gives_unknown_with_partial() -> None:
    puzzle = Puzzle([[1]] * 8, [[1]] * 8)
    result = analyse(puzzle, max_solutions=100_000, limits=SearchLimits(max_nodes=5))
    assert result.status == "unknown"
    assert result.nodes <= 6
    assert result.partial == ("?" * 8,) * 8


def test_time_limit_stops_the_search() -> None:
    puzzle = Puzzle([[1]] * 10, [[1]] * 10)  # 3,628,800 solutions: cannot finish in 0.05 s
    result = analyse(puzzle, max_solutions=10**9, limits=SearchLimits(timeout=0.05))
    assert result.status == "multiple"  # two were found before the limit: that is proven
    assert 2 <= len(result.solutions) < 3_628_800
    assert result.seconds < 2.0
    with pytest.raises(LimitReached) as info:
        for _ in engine.solve(puzzle, SearchLimits(timeout=0.05)):
            pass
    assert info.value.partial == ("?" * 10,) * 10


def test_limit_before_any_solution_is_unknown() -> None:
    puzzle = Puzzle([[1]] * 10, [[1]] * 10)
    result = analyse(puzzle, limits=SearchLimits(max_nodes=1))
    assert result.status == "unknown"
    assert result.solutions == ()


def test_partial_holds_root_deductions() -> None:
    # the bottom rows are forced by line logic, the top-left 2x2 is ambiguous
    puzzle = puzzle_from_grid(["#..", ".#.", "...", "###"])
    result = analyse(puzzle)
    assert result.status == "multiple"
    assert result.partial == ("??.", "??.", "...", "###")
    assert analyse(Puzzle([[1], [1], [3]], [[2], [2], [1]])).partial == ("???",) * 3


def test_events_report_every_step() -> None:
    events: list[int] = []
    puzzle = Puzzle([[1], [1]], [[1], [1]])
    result = analyse(puzzle, on_event=lambda kind, a, b, c, cells: events.append(kind))
    assert result.status == "multiple"
    assert 4 in events and 5 in events and events.count(6) == 2  # guesses, backtracks, solutions


def test_event_callback_error_propagates() -> None:
    def boom(*args: object) -> None:
        raise RuntimeError("stop")
    with pytest.raises(RuntimeError):
        analyse(Puzzle([[1], [1]], [[1], [1]]), on_event=boom)


@settings(max_examples=150, deadline=None)
@given(small_grids())
def test_restarts_find_exactly_the_same_solutions(grid) -> None:  # type: ignore[no-untyped-def]
    """Restart runs, then the guided complete search: every solution once, none invented."""
    puzzle = puzzle_from_grid(grid)
    expected = all_solutions(puzzle)
    found = list(engine.solve(puzzle, restarts=True))
    assert len(found) == len(set(found)) == len(expected)
    assert set(found) == expected


@pytest.mark.parametrize("name,puzzle,n,solution", CASES, ids=[c[0] for c in CASES])
def test_case_table_with_restarts(name, puzzle, n, solution) -> None:  # type: ignore[no-untyped-def]
    result = analyse(puzzle, max_solutions=100, restarts=True)
    assert set(result.solutions) == all_solutions(puzzle)
    assert result.status == {0: "none", 1: "unique"}.get(n, "multiple")


def test_restarts_on_medium_puzzles_agree_with_plain_search() -> None:
    rng = random.Random(7)
    for _ in range(30):
        w, h = rng.randint(8, 15), rng.randint(8, 15)
        grid = tuple("".join("#" if rng.random() < 0.5 else "." for _ in range(w))
                     for _ in range(h))
        puzzle = puzzle_from_grid(grid)
        plain = analyse(puzzle, max_solutions=50)
        restarted = analyse(puzzle, max_solutions=50, restarts=True)
        assert restarted.status == plain.status
        if len(plain.solutions) < 50:
            assert set(restarted.solutions) == set(plain.solutions)


def test_restarts_honour_node_limits() -> None:
    puzzle = Puzzle([[1]] * 9, [[1]] * 9)
    result = analyse(puzzle, max_solutions=10**6, limits=SearchLimits(max_nodes=30),
                     restarts=True)
    assert result.status in ("multiple", "unknown")
    assert result.nodes <= 31
    assert all(is_solution(puzzle, g) for g in result.solutions)
    assert analyse(puzzle, limits=SearchLimits(max_nodes=1), restarts=True).status == "unknown"


def test_timeout_is_honoured_on_a_large_puzzle() -> None:
    """Long lines read the clock at every step: a 400x400 search stops near its limit."""
    rng = random.Random(3)
    grid = tuple("".join("#" if rng.random() < 0.5 else "." for _ in range(400))
                 for _ in range(400))
    result = analyse(puzzle_from_grid(grid), limits=SearchLimits(timeout=0.2))
    assert result.seconds < 1.5
    if result.status == "unknown":
        # cells proven before the limit hold in every solution, so in the picture too
        proven = [(r, c, ch) for r, row in enumerate(result.partial)
                  for c, ch in enumerate(row) if ch != "?"]
        assert all(grid[r][c] == ch for r, c, ch in proven)


@pytest.mark.parametrize("seed", range(8))
def test_two_word_bitboards_agree_with_sat(seed: int) -> None:
    """Puzzles whose longest line has 64-127 cells run on two-word bitboards: counted to 3
    by the native engine and by SAT (a second method), with the same status and, when
    both are exhausted, the same solutions."""
    sat = pytest.importorskip("gridsolve.nonogram.backends.sat")
    rng = random.Random(seed)
    h, w = rng.choice([(12, 70), (20, 100), (9, 127), (66, 80)])
    density = rng.choice([0.5, 0.6, 0.7])
    grid = ["".join("#" if rng.random() < density else "." for _ in range(w)) for _ in range(h)]
    puzzle = puzzle_from_grid(grid)
    ours = analyse(puzzle, 3, SearchLimits(timeout=60))
    theirs = sat.analyse(puzzle, 3, SearchLimits(timeout=60))
    assert ours.status == theirs.status != "unknown"
    assert all(is_solution(puzzle, g) for g in ours.solutions)
    if len(ours.solutions) < 3:
        assert set(ours.solutions) == set(theirs.solutions)
    assert tuple(grid) in set(ours.solutions) or len(ours.solutions) == 3


class _Slices:
    """A team's core search that records each slice it is given: the nodes past its own
    count (``next``'s budget), with the team's work and nodes when it was given."""

    def __init__(self, core: Any, team: list[Any], slices: list[tuple[int, int, int]]) -> None:
        self.core, self.team, self.slices = core, team, slices

    def next(self, budget: int = -1, timeout: float = -1.0, *rest: Any) -> Any:
        team = self.team[0]
        own = sum(c.stats()["nodes"] for c in team.searches)
        self.slices.append((budget - self.core.stats()["nodes"], team.work(), own))
        return self.core.next(budget, timeout, *rest)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.core, name)


def test_a_paused_turn_starts_with_one_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """Team.run with ``work`` and no work per node seen yet runs one node first (a first turn
    of ``team_slice`` nodes ran far past its share on puzzles whose nodes are costly: Gettys,
    docs/decisions/0012); then each slice is what the work left allows at the work per node
    seen so far (at least one node, at most ``team_slice``), and the turn pauses once its
    work is done. (This was a fake clock cutting ``until``; the pause is counted in line
    solves now, so the team's own work is the measure and no clock is needed.)"""
    from gridsolve.nonogram.engine.team import Team
    rng = random.Random(5)
    puzzle = puzzle_from_grid(["".join(rng.choice("#.") for _ in range(30)) for _ in range(30)])
    assert analyse(puzzle, 2).nodes > 1  # a node is not enough for it
    slices: list[tuple[int, int, int]] = []
    holder: list[Any] = []
    made = Team._search
    monkeypatch.setattr(Team, "_search", lambda self, *a, **k: _Slices(made(self, *a, **k),
                                                                       holder, slices))
    team = Team(puzzle, 2)
    holder[:] = [team]
    assert not team.run(SearchLimits(), work=1)
    assert team.nodes() == 1 and [size for size, _, _ in slices] == [1]
    assert team.run(SearchLimits())  # no pause: on to the answer
    assert team.result().status == "multiple"
    # the benchmark's rand50-6, which the team alone does not end: its root's probing is
    # far more work than a later node, so a turn of that work again has several slices,
    # each fitting the work left at the rate seen so far
    rng = random.Random(50 * 1000 + 6)
    puzzle = puzzle_from_grid(["".join("#" if rng.random() < 0.5 else "." for _ in range(50))
                               for _ in range(50)])
    team = Team(puzzle, 2)
    holder[:] = [team]
    slices.clear()
    assert not team.run(SearchLimits(), work=1) and team.nodes() == 1 and len(slices) == 1
    first = team.work()
    for turn in range(2):  # the root's work again, then 20 nodes' at the rate seen
        work = first if turn == 0 else 20 * team.work() // team.nodes()
        slices.clear()
        end = team.work() + work
        assert not team.run(SearchLimits(), work=work) and not team.found
        for size, done, own in slices:
            assert done < end and 1 <= size <= team.policy.team_slice
            assert size == 1 or size <= (end - done) * own // done
        assert team.work() >= end  # it paused once its work was done, not before
    assert 1 < slices[0][0] < team.policy.team_slice  # (sized by the work, more than a node)
    # ample work: whole slices of team_slice nodes (the first search's restarts cut some)
    slices.clear()
    assert not team.run(SearchLimits(max_nodes=team.nodes() + 60), work=10**12)
    assert max(size for size, _, _ in slices) == team.policy.team_slice


@pytest.mark.heavy
def test_solvers_one_after_another_start_clean() -> None:
    """The engine hands its line caches and implication tables from one solver to the next
    (engine/pool.h): solvers made while others are alive and after they are gone, on puzzles
    of one size whose lines share numbers and cells but not clues, each find exactly the
    reference search's solutions (a stale cache entry would answer for another clue)."""
    rng = random.Random(2026)
    puzzles = []
    for _ in range(6):
        grid = tuple("".join("#" if rng.random() < 0.5 else "." for _ in range(11))
                     for _ in range(10))
        puzzles.append(puzzle_from_grid(grid))
    expected = [set(itertools.islice(reference.search(p), 50)) for p in puzzles]
    for order in (range(6), reversed(range(6)), (0, 3, 1, 4, 2, 5)):
        alive = []
        for k in order:
            search = engine.solve(puzzles[k])  # a live solver while the next is made
            alive.append(search)
            assert set(itertools.islice(analyse(puzzles[k], max_solutions=50).solutions, 50)) == expected[k]
            first = next(search)
            assert first in expected[k]
        alive.clear()  # their blocks go back to the pool for the next order


def test_deadlines_are_said_once() -> None:
    """Every step that goes on under an earlier deadline gets its time from these: the clock
    time a timeout runs out, the seconds left (never below 0), and whether it has passed."""
    import time

    from gridsolve.nonogram.engine import deadline_of, passed, seconds_left

    assert deadline_of(None) is None and seconds_left(None) is None and not passed(None)
    assert SearchLimits().deadline() is None and SearchLimits().until(None) == SearchLimits()
    now = time.perf_counter()
    soon = SearchLimits(timeout=60, max_nodes=5).deadline()
    assert soon is not None and now + 60 <= soon <= time.perf_counter() + 60
    assert SearchLimits(timeout=2).deadline(since=10.0) == 12.0
    assert SearchLimits().deadline(since=10.0) is None
    left = seconds_left(soon)
    assert left is not None and 59 < left <= 60 and not passed(soon)
    cut = SearchLimits(timeout=600, max_nodes=5).until(soon)
    assert cut.max_nodes == 5 and cut.timeout is not None and 59 < cut.timeout <= 60
    gone = time.perf_counter() - 1
    assert passed(gone) and seconds_left(gone) == 0.0
    assert SearchLimits(timeout=600).until(gone).timeout == 0.0
    assert passed(time.perf_counter())  # reached counts as passed


@settings(max_examples=80, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(2, 6), st.integers(2, 6),
       st.sampled_from([0.0, 0.1, 0.3]))
def test_known_cells_find_exactly_the_solutions_that_agree(rng: random.Random, w: int, h: int,
                                                           wrong: float) -> None:
    """``known`` cells (set before the search) keep exactly the solutions that agree with
    them, against enumeration; some positions come from a solution, some have cells turned
    so that often none agrees ("none")."""
    grid = tuple("".join(rng.choice("#.") for _ in range(w)) for _ in range(h))
    puzzle = puzzle_from_grid(grid)
    known = tuple("".join((("." if ch == "#" else "#") if rng.random() < wrong else ch)
                          if rng.random() < 0.4 else "?" for ch in row) for row in grid)
    agree = {s for s in all_solutions(puzzle)
             if all(k == "?" or k == v for ks, vs in zip(known, s) for k, v in zip(ks, vs))}
    for probing in (True, False):
        result = analyse(puzzle, 1000, known=known, probing=probing)
        assert set(result.solutions) == agree and len(result.solutions) == len(agree)
        assert result.status == {0: "none", 1: "unique"}.get(len(agree), "multiple")
        assert result.exhausted
    assert set(engine.solve(puzzle, known=known)) == agree


def test_known_cells_are_checked() -> None:
    """Known cells must fit the puzzle, come before the search, and not under an observer;
    colour puzzles take them too."""
    from gridsolve.errors import GridsolveError
    from gridsolve.nonogram.engine import _core
    from gridsolve.nonogram.model import WHITE, Colour, colour_puzzle_from_grid
    puzzle = puzzle_from_grid(("#.", ".#"))
    with pytest.raises(GridsolveError, match="not a 2x2 grid"):
        analyse(puzzle, 2, known=("#.",))
    with pytest.raises(GridsolveError, match="starts from the empty grid"):
        analyse(puzzle, 2, known=("#?", "??"), on_event=lambda *a: None)
    core = _core.Search(puzzle.rows, puzzle.cols)
    with pytest.raises(ValueError, match="one byte per cell"):
        core.fix(b"#")
    with pytest.raises(ValueError, match="'#', '.' or '?'"):
        core.fix(b"#x??")
    core.fix(b"#???")
    with pytest.raises(ValueError, match="comes once, before the search starts"):
        core.fix(b"#???")
    assert core.next() == _core.SOLUTION and core.grid() == b"#..#"
    assert analyse(puzzle, 2, known=("#?", "?é")).status == "unique"  # other characters: open
    colour = colour_puzzle_from_grid(("a.", ".a"), (WHITE, Colour("red", (255, 0, 0), "a")))
    assert analyse(colour, 2, known=("a?", "??")).solutions == (("a.", ".a"),)  # (issue 55)
