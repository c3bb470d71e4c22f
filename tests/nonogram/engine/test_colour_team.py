"""The colour engine's conflict weights (``_colour.ORDER_WDEG``) and restarts with nogoods
(``nogoods=True``), alone and in ``ColourTurns``: exact counts against brute force and the
plain search with restarts after every failed node, nogoods that never lose a solution, a
root that stays proven, identical reruns, node limits (0038)."""

from __future__ import annotations

import dataclasses
import random
import signal
import time

import pytest

import gridsolve.nonogram.engine._colour as _colour
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.engine.colour_dive import ColourTurns
from gridsolve.nonogram.engine.cores import COLOUR
from gridsolve.nonogram.model import ColourPuzzle
from gridsolve.nonogram.policy import DEFAULT_POLICY
from tests.nonogram.engine.test_colour_dive import TINY, every_solution, random_puzzle
from tests.nonogram.oracle import all_colour_solutions
from tests.signals import SOON, TIMEOUT, ctrl_c, raise_once

#: The plain search restarting after every failed node, its runs taking turns between the
#: probes' ranking and the conflict weights, in the tiny turns of test_colour_dive.
TEAM = dataclasses.replace(TINY, colour_restart_fails=1, colour_wdeg=True)
ORDERS = (_colour.ORDER_PROBES, _colour.ORDER_WDEG)
#: The team's plain search alone (the dive declined), restarting after every failed node.
ALONE = dataclasses.replace(DEFAULT_POLICY, colour_restart_fails=1, colour_wdeg=True,
                            colour_dive_min_open=1.0)


def restarting(puzzle: ColourPuzzle, probing: bool, orders: tuple[int, ...],
               ) -> tuple[list[tuple[str, ...]], dict[str, int], int]:
    """Every solution by one search with nogoods that restarts after each failed node until
    it stands on a solution, its rule taking turns (``orders``): the solutions, its stats
    and its restarts."""
    p = puzzle
    core = _colour.Search(p.rows, p.cols, len(p.palette), probing, order=orders[0],
                          nogoods=True)
    found = []
    restarts = 0
    while True:
        code = core.next(pause_fails=core.stats()["fails"] + 1)
        if code == _colour.SOLUTION:
            found.append(COLOUR.read(p, core.grid()))
        elif code == _colour.EXHAUSTED:
            return found, core.stats(), restarts
        elif not core.stats()["solutions"]:
            restarts += 1
            assert core.restart(0, order=orders[restarts % len(orders)])


def test_the_weighted_rule_finds_every_solution() -> None:
    """ORDER_WDEG is a whole search: brute force's solutions, each once, on 30 tiny puzzles."""
    for seed in range(30):
        puzzle = random_puzzle(seed, 4, 1 + seed % 3, 0.3 + 0.1 * (seed % 4))
        core = _colour.Search(puzzle.rows, puzzle.cols, len(puzzle.palette),
                              order=_colour.ORDER_WDEG)
        found = every_solution(core, puzzle)
        assert len(found) == len(set(found)), seed
        assert set(found) == all_colour_solutions(puzzle), seed


@pytest.mark.heavy
@pytest.mark.parametrize("probing", [True, False])
def test_restarts_with_nogoods_count_as_brute_force(probing: bool) -> None:
    """Restarts after every failed node, keeping nogoods: every solution of brute force on
    tiny puzzles, each once."""
    for seed in range(24):
        puzzle = random_puzzle(300 + seed, 5 if seed % 3 else 4, 1 + seed % 3,
                               0.3 + 0.1 * (seed % 4))
        found, _, _ = restarting(puzzle, probing, ORDERS)
        assert len(found) == len(set(found)), seed
        assert set(found) == all_colour_solutions(puzzle), seed


def lose_none(seeds: range) -> tuple[int, int, int]:
    """Restarting searches with nogoods count exactly what one search without restarts
    counts, rule by rule, with probing and without, on 9x9-12x12 puzzles of ``seeds``
    (those with at most 20,000 nodes of solutions); their restarts, nogoods and units."""
    restarts = nogoods = units = 0
    for seed in seeds:
        rng = random.Random(seed)
        p = random_puzzle(seed, rng.choice([9, 10, 11, 12]), rng.choice([1, 2, 3]),
                          rng.choice([0.4, 0.5, 0.6]))
        plain = _colour.Search(p.rows, p.cols, len(p.palette), False)
        truth = []
        while (code := plain.next(max_nodes=20_000)) == _colour.SOLUTION:
            truth.append(COLOUR.read(p, plain.grid()))
        if code != _colour.EXHAUSTED:
            continue  # (too many solutions for a test)
        for probing in (True, False):
            for orders in ((ORDERS[0],), (ORDERS[1],), ORDERS):
                found, stats, runs = restarting(p, probing, orders)
                assert sorted(found) == sorted(truth), (seed, probing, orders)
                restarts += runs
                nogoods += stats["nogoods"]
                units += stats["nogood_units"]
    return restarts, nogoods, units


def test_nogoods_never_lose_a_solution() -> None:
    """Restarts after every failed node, many nogoods and their units: not one solution
    lost on 12 puzzles."""
    restarts, nogoods, units = lose_none(range(12))
    assert restarts >= 15 and nogoods >= 10 and units >= 30


@pytest.mark.heavy
def test_nogoods_never_lose_a_solution_on_thousands() -> None:
    """The same on 1,000 puzzles (about 2,000 restarts and nogoods, 5,500 units)."""
    restarts, nogoods, units = lose_none(range(100, 1100))
    assert restarts >= 1500 and nogoods >= 1500 and units >= 4000


def test_the_root_stays_proven() -> None:
    """After restarts, the root (narrowed by the nogoods) still allows every solution's
    colour at every cell: nogoods are refutations only."""
    narrowed = 0
    for seed in range(150):
        puzzle = random_puzzle(500 + seed, 10, 1 + seed % 3, 0.4 + 0.05 * (seed % 4))
        p = puzzle
        core = _colour.Search(p.rows, p.cols, len(p.palette), False, nogoods=True)
        before = None
        for _ in range(50):
            code = core.next(pause_fails=core.stats()["fails"] + 1)
            if code != _colour.LIMIT or core.stats()["solutions"]:
                break
            before = before or core.root()
            assert core.restart()
        if before is None:
            continue
        # (the root settles again with the nogoods at the next call: a node limit stops there)
        assert core.next(max_nodes=core.stats()["nodes"]) != _colour.EXHAUSTED
        narrowed += core.root() != before
        symbols = [c.symbol for c in p.palette]
        masks = memoryview(core.root_masks()).cast("I")
        for grid in every_solution(_colour.Search(p.rows, p.cols, len(p.palette)), p):
            for i, symbol in enumerate("".join(grid)):
                assert masks[i] >> symbols.index(symbol) & 1, (seed, i)
    assert narrowed >= 3


def test_turns_with_the_team_count_every_solution() -> None:
    """ColourTurns whose plain search restarts after every failed node with both rules in
    turns: the pool is brute force's solutions once a search is exhausted; to 2, the
    statuses of brute force."""
    for seed in range(16):
        puzzle = random_puzzle(2000 + seed, 5, 2, 0.5)
        truth = all_colour_solutions(puzzle)
        turns = ColourTurns(puzzle, 64, policy=TEAM)
        assert turns.solve()
        assert set(turns.result().solutions) == truth, seed
        two = ColourTurns(puzzle, 2, policy=TEAM)
        assert two.solve()
        assert two.result().status == ("none" if not truth else "unique" if len(truth) == 1
                                       else "multiple"), seed


def test_the_team_restarts_and_repeats_exactly() -> None:
    """On a 20x20 puzzle under a work budget the team's plain search restarts with nogoods,
    and two runs end at the same nodes, work, restarts, nogoods and solutions."""
    puzzle = random_puzzle(10, 20, 2, 0.6)
    runs = []
    for _ in range(2):
        turns = ColourTurns(puzzle, 2, policy=ALONE)
        turns.solve(work=60_000)
        stats = turns.stats()
        runs.append((turns.nodes(), turns.work(), stats["restarts"], stats["nogoods"],
                     stats["nogood_units"], tuple(turns.found)))
        assert turns.work() <= 60_000 + 68
    assert runs[0] == runs[1]
    assert runs[0][2] >= 1


def test_node_limits_hold_with_the_team() -> None:
    puzzle = random_puzzle(3, 35, 2, 0.6)
    policy = dataclasses.replace(DEFAULT_POLICY, colour_restart_fails=1, colour_wdeg=True)
    turns = ColourTurns(puzzle, 2, policy=policy)
    turns.solve(SearchLimits(max_nodes=40))
    assert turns.nodes() <= 40
    assert turns.result().status == "unknown"


def test_restart_arguments_are_checked() -> None:
    puzzle = random_puzzle(1, 4, 2, 0.5)
    core = _colour.Search(puzzle.rows, puzzle.cols, 3, nogoods=True)
    assert not core.restart()  # before the root: nothing to restart
    with pytest.raises(ValueError):
        core.restart(0, order=7)
    with pytest.raises(ValueError):
        _colour.Search(puzzle.rows, puzzle.cols, 3, order=7)


@pytest.mark.heavy
@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signals")
def test_ctrl_c_stops_the_team() -> None:
    """Ctrl-C stops the colour turns with the team's restarts on the benchmark's rnd40-2c-60
    #0 (no solver here proves it in 20 s) well before their timeout."""
    puzzle = random_puzzle(400_260, 40, 2, 0.6)
    policy = dataclasses.replace(DEFAULT_POLICY, colour_restart_fails=1, colour_wdeg=True)
    turns = ColourTurns(puzzle, 2, policy=policy)
    started = time.perf_counter()
    with ctrl_c(raise_once()), pytest.raises(KeyboardInterrupt):
        turns.solve(SearchLimits(timeout=TIMEOUT))
    assert time.perf_counter() - started < SOON
