"""The colour dive (``_colour.ORDER_BP``, ``engine.colour_dive.ColourTurns``) against brute
force and the plain colour search: exact counts and statuses, known cells, work budgets that
repeat exactly, limits, restarts and pauses of the core."""

from __future__ import annotations

import dataclasses
import random
import signal
import time

import pytest

import gridsolve.nonogram.engine._colour as _colour
from gridsolve.nonogram import engine
from gridsolve.nonogram.engine import Progress, SearchLimits
from gridsolve.nonogram.engine.colour_dive import ColourTurns, colour_dives
from gridsolve.nonogram.engine.cores import COLOUR
from gridsolve.nonogram.model import (WHITE, Colour, ColourPuzzle, colour_puzzle_from_grid,
                                      is_colour_solution)
from gridsolve.nonogram.policy import DEFAULT_POLICY
from gridsolve.nonogram.reference_colour import colour_arrangements
from tests.nonogram.oracle import all_colour_solutions
from tests.signals import SOON, TIMEOUT, ctrl_c, raise_once

INKS = (Colour("red", (220, 40, 40), "r"), Colour("green", (40, 160, 60), "g"),
        Colour("blue", (40, 80, 220), "b"), Colour("orange", (240, 140, 0), "o"))
#: Turns small enough that tiny puzzles see every part of the plan: a first dive of one
#: failed node, restarts after every failed node, turns of a few line solves, the dive
#: declined only where propagation solves the puzzle.
TINY = dataclasses.replace(DEFAULT_POLICY, dive_first_fails=1, dive_restart_fails=1,
                           turns_first=5, turns_share=7, dive_slice=1, colour_dive_min_open=0)
#: The dive on every puzzle propagation does not solve.
DIVES = dataclasses.replace(DEFAULT_POLICY, colour_dive_min_open=0)


def random_puzzle(seed: int, size: int, colours: int, background: float) -> ColourPuzzle:
    """A seeded random picture's puzzle (as benchmarks/colour.py makes them)."""
    rng = random.Random(seed)
    symbols = "".join(c.symbol for c in INKS[:colours])
    grid = tuple("".join("." if rng.random() < background else rng.choice(symbols)
                         for _ in range(size)) for _ in range(size))
    return colour_puzzle_from_grid(grid, (WHITE, *INKS[:colours]))


def dive_core(puzzle: ColourPuzzle, probe_share: float = 0.0) -> _colour.Search:
    return _colour.Search(puzzle.rows, puzzle.cols, len(puzzle.palette), False,
                          order=_colour.ORDER_BP, probe_share=probe_share)


def every_solution(core: _colour.Search, puzzle: ColourPuzzle) -> list[tuple[str, ...]]:
    found = []
    while (code := core.next()) == _colour.SOLUTION:
        found.append(COLOUR.read(puzzle, core.grid()))
    assert code == _colour.EXHAUSTED
    return found


def test_the_line_factor_matches_brute_force() -> None:
    """The dive's line marginals (forward-backward over the clue's automaton) equal the
    weighted shares over every arrangement, on 300 random lines, clues and priors (some
    colours ruled out, some cells known); None exactly when no arrangement has weight."""
    rng = random.Random(55)
    for _ in range(300):
        n, colours = rng.randint(1, 9), rng.randint(1, 4)
        truth = [rng.choice(range(colours + 1)) for _ in range(n)]
        line = "".join(".rgbo"[c] for c in truth)
        clue = colour_puzzle_from_grid((line,), (WHITE, *INKS[:colours])).rows[0]
        priors = []
        for _ in range(n):
            weights = [rng.choice((0.0, rng.random(), 1.0)) for _ in range(colours + 1)]
            total = sum(weights) or 1.0
            priors.append([w / total for w in weights])
        got = _colour.line_marginals(clue, colours + 1, priors)
        shares = [[0.0] * (colours + 1) for _ in range(n)]
        total = 0.0
        for arrangement in colour_arrangements(clue, n):
            weight = 1.0
            for i, c in enumerate(arrangement):
                weight *= priors[i][c]
            total += weight
            for i, c in enumerate(arrangement):
                shares[i][c] += weight
        if total == 0.0:
            assert got is None, (clue, priors)
            continue
        assert got is not None, (clue, priors)
        for mine, theirs in zip(got, shares):
            assert mine == pytest.approx([x / total for x in theirs], abs=1e-9), (clue, priors)


@pytest.mark.parametrize("probe_share", [0.0, 0.5, 1.0])
def test_the_dive_alone_finds_every_solution_once(probe_share: float) -> None:
    """A dive run is a whole search: on 40 tiny random puzzles it finds every solution brute
    force does, each once, and each fits the clues."""
    for seed in range(40):
        puzzle = random_puzzle(seed, 4, 1 + seed % 3, 0.3 + 0.1 * (seed % 4))
        truth = all_colour_solutions(puzzle)
        found = every_solution(dive_core(puzzle, probe_share), puzzle)
        assert len(found) == len(set(found)), seed
        assert set(found) == truth, seed


def test_turns_count_as_brute_force_and_the_plain_search() -> None:
    """The dive and the plain search in turns (tiny turns, restarts after every failed node)
    give the plain search's status and count to 2, and brute force's, on 40 tiny puzzles."""
    for seed in range(40):
        colours = 1 + seed % 4
        puzzle = random_puzzle(1000 + seed, 5 if colours < 3 else 4, colours,
                               0.2 + 0.1 * (seed % 5))
        truth = all_colour_solutions(puzzle)
        turns = ColourTurns(puzzle, 2, policy=TINY)
        assert turns.solve()
        result = turns.result()
        plain = engine.analyse(puzzle, 2, dive=False)
        assert result.status == plain.status, seed
        assert set(result.solutions) <= truth
        assert len(result.solutions) == min(2, len(truth)), seed
        assert result.status == ("none" if not truth else "unique" if len(truth) == 1
                                 else "multiple"), seed


def test_restarts_keep_the_count_exact() -> None:
    """Counting every solution with restarts after each failed node: the pool is every
    solution once the dive or the search is exhausted."""
    for seed in range(12):
        puzzle = random_puzzle(2000 + seed, 5, 2, 0.5)
        truth = all_colour_solutions(puzzle)
        turns = ColourTurns(puzzle, 64, policy=TINY)
        assert turns.solve()
        assert set(turns.result().solutions) == truth, seed
        assert turns.complete


def test_known_cells_are_respected() -> None:
    """With known cells, only the solutions that agree are found, by both searches; a cell
    no solution agrees with gives "none"."""
    puzzle = random_puzzle(24, 5, 2, 0.5)
    truth = sorted(all_colour_solutions(puzzle))
    first = truth[0]
    known = (first[0], *("?" * 5 for _ in range(4)))  # its first row
    agree = {g for g in truth if g[0] == first[0]}
    assert 2 <= len(agree) < len(truth)
    turns = ColourTurns(puzzle, 64, known=known, policy=TINY)
    assert turns.solve()
    assert set(turns.result().solutions) == agree
    # a colour no solution has at its cell
    r, c, symbol = next((r, c, s) for r in range(5) for c in range(5) for s in ".rg"
                        if all(g[r][c] != s for g in truth))
    wrong = tuple("".join(symbol if (i, j) == (r, c) else "?" for j in range(5))
                  for i in range(5))
    none = ColourTurns(puzzle, 2, known=wrong, policy=TINY)
    assert none.solve() and none.result().status == "none"


def test_a_work_budget_repeats_exactly_and_holds() -> None:
    """Two runs under one work budget end at the same nodes and work, within the budget plus
    what one line pass can add."""
    puzzle = random_puzzle(3, 35, 2, 0.6)
    runs = []
    for _ in range(2):
        turns = ColourTurns(puzzle, 2)
        assert not turns.solve(work=30_000)
        runs.append((turns.nodes(), turns.work(), turns.stats()["dive_nodes"]))
        # (the line solves look at the budget every 64: colour_setup.c's check_mask)
        assert turns.work() <= 30_000 + 68
    assert runs[0] == runs[1]


def test_node_limits_and_timeouts_are_honoured() -> None:
    puzzle = random_puzzle(3, 35, 2, 0.6)
    turns = ColourTurns(puzzle, 2)
    turns.solve(SearchLimits(max_nodes=40))
    assert turns.nodes() <= 40
    assert turns.result().status == "unknown"
    late = ColourTurns(puzzle, 2)
    assert not late.solve(SearchLimits(timeout=0.0))
    assert late.result().status == "unknown"


def test_the_node_limit_pauses_the_core_where_it_stands() -> None:
    """A colour search paused at every node (max_nodes) finds what one run finds, in order
    (before the dive it stopped for good at a node limit)."""
    puzzle = random_puzzle(11, 5, 2, 0.4)
    p = puzzle
    straight = every_solution(_colour.Search(p.rows, p.cols, 3), p)
    paused = _colour.Search(p.rows, p.cols, 3)
    found = []
    for _ in range(10_000):
        code = paused.next(max_nodes=paused.stats()["nodes"] + 1)
        if code == _colour.SOLUTION:
            found.append(COLOUR.read(p, paused.grid()))
        elif code == _colour.EXHAUSTED:
            break
    assert found == straight and len(found) >= 2


def test_restart_goes_back_to_the_root() -> None:
    """A restart, randomised or not, searches the whole tree again from the root: every
    solution, whichever it finds first; an exhausted search stays exhausted."""
    puzzle = random_puzzle(10, 5, 1, 0.5)
    truth = all_colour_solutions(puzzle)
    assert len(truth) == 5
    core = dive_core(puzzle)
    assert not core.restart(1)  # before the root: nothing to restart
    assert core.next() == _colour.SOLUTION
    first = core.grid()
    assert core.restart(0)  # not randomised: the same first solution
    assert core.next() == _colour.SOLUTION
    assert core.grid() == first
    assert core.next() == _colour.SOLUTION  # a second one, then back to the root
    assert core.restart(5)  # randomised
    assert core.next() == _colour.SOLUTION and core.next() == _colour.SOLUTION
    assert core.restart(0)
    assert set(every_solution(core, puzzle)) == truth
    assert core.restart(5) and core.next() == _colour.EXHAUSTED  # exhausted stays so


def test_the_dive_walks_to_a_random_40x40_without_failing() -> None:
    """Belief propagation orders the dive well: on a random 40x40 of 4 colours at 60%
    background (which the plain search took seconds over) its first solution comes after
    a few hundred nodes and no failed node (a branching rule that did not follow the
    marginals fails hundreds of times here)."""
    puzzle = random_puzzle(400_460, 40, 4, 0.6)
    core = dive_core(puzzle, 0.35)
    assert core.next(max_nodes=2000) == _colour.SOLUTION
    assert is_colour_solution(puzzle, COLOUR.read(puzzle, core.grid()))
    assert core.stats()["fails"] <= 5
    assert core.stats()["bp_rounds"] > 0


def test_the_dive_starts_again_from_the_probed_root() -> None:
    """A dive that found nothing before the plain search settled its root starts again from
    that root; the counters of the first stay in the totals, and the count stays exact."""
    puzzle = random_puzzle(3014, 16, 2, 0.6)
    turns = ColourTurns(puzzle, 2, policy=TINY)
    assert turns.solve()
    assert turns.rooted and turns.retired["nodes"] > 0
    assert turns.stats()["dive_nodes"] > turns.retired["nodes"]
    assert turns.nodes() == turns.stats()["nodes"]
    assert turns.result().status == engine.analyse(puzzle, 2, dive=False).status == "multiple"


def test_a_dive_that_ends_first_reports_its_root() -> None:
    """When the dive ends the count before the plain search settled its root, the partial
    grid is the dive's root (what propagation proved), not all open."""
    puzzle = random_puzzle(7, 26, 4, 0.6)
    result = engine.analyse(puzzle, 2, policy=DIVES)
    assert result.status == "multiple" and result.stats["root_complete"] == 0
    open_cells = sum(row.count("?") for row in result.partial)
    assert 0 < open_cells < 26 * 26
    assert all(s[r][c] == ch for s in result.solutions for r, row in enumerate(result.partial)
               for c, ch in enumerate(row) if ch != "?")


@pytest.mark.heavy
def test_analyse_dives_on_its_sizes_only() -> None:
    big, small = random_puzzle(5, 33, 4, 0.6), random_puzzle(5, 24, 4, 0.6)
    assert colour_dives(big) and not colour_dives(small)
    assert "dive_nodes" not in engine.analyse(small, 2).stats
    assert "dive_nodes" not in engine.analyse(big, 2, team=False).stats  # one search
    progress = Progress()
    result = engine.analyse(big, 2, progress=progress)
    assert result.status == "multiple" and "dive_nodes" in result.stats
    assert progress.solutions == 2 and progress.nodes == result.nodes
    assert progress.partial is not None and progress.partial() == result.partial
    assert all(is_colour_solution(big, g) for g in result.solutions)
    plain = engine.analyse(big, 2, dive=False, limits=SearchLimits(max_nodes=1))
    assert "dive_nodes" not in plain.stats


@pytest.mark.heavy
def test_analyse_colour_with_the_dive_keeps_its_work_and_root() -> None:
    puzzle = random_puzzle(5, 33, 4, 0.6)
    result, root = engine.analyse_colour(puzzle, 2, work=10_000_000, dive=True)
    assert result.status == "multiple" and result.stats["dive_nodes"] > 0
    assert len(root.masks) == 4 * 33 * 33
    few, _ = engine.analyse_colour(puzzle, 2, work=1_000, dive=True)
    assert few.status == "unknown" and few.stats["line_solves"] <= 1_068


@pytest.mark.heavy
@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signals")
def test_ctrl_c_stops_the_dive() -> None:
    """Ctrl-C stops a dive that would run for long (the benchmark's rnd40-2c-60 #0, which no
    solver proves in 20 s) well before its timeout, inside the core."""
    puzzle = random_puzzle(400_260, 40, 2, 0.6)
    core = dive_core(puzzle, 0.35)
    started = time.perf_counter()
    with ctrl_c(raise_once()), pytest.raises(KeyboardInterrupt):
        core.next(-1, TIMEOUT)
    assert time.perf_counter() - started < SOON
    assert core.stats()["timed_out"] == 1



def test_the_dive_is_declined_where_propagation_leaves_little_open() -> None:
    """A random 30x30 of 4 colours at half background: propagation at the root leaves at
    most ``colour_dive_min_open`` of the cells open, so the plain search runs alone from that
    root (no dive is made) and ends as the plain search does; with the threshold at 0 the
    dive takes its turns. The root's implications are still kept for SAT (``implied``)."""
    puzzle = random_puzzle(11, 30, 4, 0.5)
    plain = engine.analyse(puzzle, 2, dive=False)
    turns = ColourTurns(puzzle, 2, keep_root=True)
    assert turns.solve()
    assert turns.diver is None and "dive_nodes" not in turns.stats()
    result = turns.result()
    assert result.status == plain.status == "multiple"
    assert all(is_colour_solution(puzzle, g) for g in result.solutions)
    assert turns.plain.root_implications() and turns.stats()["root_complete"] == 1
    assert turns.nodes() == result.nodes == turns.stats()["nodes"]
    diving = ColourTurns(puzzle, 2, policy=DIVES)
    assert diving.solve() and diving.stats()["dive_nodes"] > 0
    assert diving.result().status == "multiple"
