"""The SAT backend on colour puzzles: a second, independent method for the colour engine."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from gridsolve.nonogram.backends import analyse
from gridsolve.nonogram.engine import Result, SearchLimits
from gridsolve.nonogram.engine import colour as ce
from gridsolve.nonogram.formats import read_entry
from gridsolve.nonogram.model import ColourPuzzle, colour_puzzle_from_grid, is_colour_solution
from gridsolve.nonogram.policy import DEFAULT_POLICY
from tests.nonogram.oracle import all_colour_solutions
from tests.nonogram.engine.test_colour_engine import (COLOUR_CORPUS, palette, permutations, random_grid,
                                               tiny_grids)

pytest.importorskip("pysat")
from gridsolve.nonogram.backends import sat  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(tiny_grids())
def test_sat_counts_equal_brute_force(case) -> None:  # type: ignore[no-untyped-def]
    grid, colours = case
    puzzle = colour_puzzle_from_grid(grid, palette(colours))
    result = sat.analyse(puzzle, 100_000)
    assert len(result.solutions) == len(set(result.solutions))
    assert set(result.solutions) == all_colour_solutions(puzzle)


def test_sat_agrees_with_the_colour_engine() -> None:
    """Medium random puzzles (8-14 cells a side, 2-4 colours): same status and solutions."""
    rng = random.Random(8)
    for _ in range(25):
        colours = rng.randint(2, 4)
        grid = random_grid(rng, rng.randint(8, 14), rng.randint(8, 14), colours, 0.5)
        puzzle = colour_puzzle_from_grid(grid, palette(colours))
        native = ce.analyse(puzzle, 20)
        cnf = analyse(puzzle, 20, method="sat")
        assert cnf.status == native.status
        assert set(cnf.solutions) == set(native.solutions) or len(native.solutions) == 20
        assert all(is_colour_solution(puzzle, s) for s in cnf.solutions)


@pytest.mark.heavy
def test_sat_on_colour_edges() -> None:
    none = ColourPuzzle([[(1, 1), (1, 2)], []], [[(1, 2)], [(1, 1)]], palette(2))
    assert sat.analyse(none).status == "none"
    assert sat.analyse(colour_puzzle_from_grid((".",), palette(1))).solutions == ((".",),)
    assert len(sat.analyse(permutations(6, 2), 100).solutions) == 36
    many = sat.analyse(permutations(8), 10**6, SearchLimits(max_nodes=3))
    assert many.status in ("multiple", "unknown")
    # CaDiCaL runs in a child process under a timeout: the colour CNF travels there too
    child = sat.analyse(permutations(12, 2), 10**9, SearchLimits(timeout=0.3),
                        solver="cadical195")
    assert child.status == "multiple" and child.seconds < 2.0
    assert all(is_colour_solution(permutations(12, 2), s) for s in child.solutions)


def test_sat_takes_known_colour_cells() -> None:
    puzzle = permutations(4, 2)
    known = ("a???", "?b??", "????", "????")
    found = set(sat.analyse(puzzle, 100, known=known).solutions)
    assert found == {s for s in ce.solve(puzzle) if s[0][0] == "a" and s[1][1] == "b"}
    assert found
    assert sat.analyse(puzzle, 100, known=("b???", "????", "????", "????")).status == "none"


def test_auto_hands_a_long_colour_search_to_sat() -> None:
    """Past the native node budget (here one node), auto goes on with SAT, seeded with the
    native root grid, and finds what was asked for."""
    policy = replace(DEFAULT_POLICY, auto_nodes=1)
    puzzle = permutations(10, 2)  # (5!)^2 = 14,400 solutions
    result = analyse(puzzle, 300, method="auto", policy=policy)
    assert result.stats.get("handover") == 1
    assert result.status == "multiple"
    assert len(set(result.solutions)) == 300
    assert all(is_colour_solution(puzzle, s) for s in result.solutions)
    small = analyse(permutations(4, 2), 100, method="auto", policy=policy)  # (2!)^2
    assert len(set(small.solutions)) == 4 and small.exhausted


@pytest.mark.heavy
def test_auto_colour_turn_is_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A colour puzzle's native turn is the policy's colour_work, not first_work (which
    would let the native engine count these 300 itself), in auto and in --jobs."""
    from gridsolve.nonogram.backends import parallel
    from gridsolve.nonogram.backends._processes import Worker
    policy = replace(DEFAULT_POLICY, auto_nodes=10**9, first_work=10**12,
                     first_work_large=10**12, parallel_after=10**12, colour_work=0)
    puzzle = permutations(10, 2)
    result = analyse(puzzle, 300, method="auto", policy=policy)
    assert result.stats.get("handover") == 1 and result.stats["native_nodes"] <= 1  # the root
    assert len(set(result.solutions)) == 300
    assert all(is_colour_solution(puzzle, s) for s in result.solutions)
    from gridsolve.nonogram import engine
    budgets: list[int | None] = []  # the work of each colour first turn
    real = engine.analyse_colour

    def spy(p: ColourPuzzle, n: int, limits: SearchLimits, keep_root: bool = True,
            work: int | None = None, **kw: Any) -> tuple[Result, engine.ColourRoot]:
        budgets.append(work)
        return real(p, n, limits, keep_root=keep_root, work=work, **kw)

    monkeypatch.setattr(engine, "analyse_colour", spy)
    assert len(set(parallel.analyse(puzzle, 300, jobs=2, policy=policy).solutions)) == 300
    assert budgets[0] == 0
    # --jobs hands SAT the root's clauses too (its side is made here, before the fork)
    sides: list[list[list[int]] | None] = []
    real_side = parallel._sat_side

    def side_spy(*args: object, **kw: object) -> list[Worker]:
        sides.append(kw.get("extra"))  # type: ignore[arg-type]
        return real_side(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel, "_sat_side", side_spy)
    # the root settles (40 million line solves, colour_work over the mean line length of
    # 10: ~10 s); then 1 node
    root = replace(DEFAULT_POLICY, colour_work=400_000_000, auto_nodes=1)
    assert len(set(parallel.analyse(puzzle, 300, jobs=2, policy=root).solutions)) == 300
    assert sides and sides[-1] and all(len(c) in (1, 2) for c in sides[-1])
    assert budgets[-1] == root.parallel_after  # (the smaller of it and colour_work)
    handed = analyse(puzzle, 300, method="auto", policy=root)  # and so does auto
    assert handed.stats["sat_extra_clauses"] == len(sides[-1])
    assert len(set(handed.solutions)) == 300
    from gridsolve.nonogram.backends.auto import colour_turn
    assert budgets[-1] == colour_turn(puzzle, root)  # colour_work over the mean line length
    # without SAT (--method native) the native turn stays parallel_after
    assert len(set(parallel.analyse(puzzle, 300, jobs=2, with_sat=False,
                                    policy=policy).solutions)) == 300
    assert budgets[-1] == policy.parallel_after


@pytest.mark.parametrize("name", [n for n in COLOUR_CORPUS if "olsak" not in n or "viceres" in n])
def test_sat_on_small_corpus_puzzles(puzzles_dir: Path, name: str) -> None:
    """The small real colour puzzles (the Olšák ones take SAT ~0.1-0.8 s each: left out)."""
    puzzle = read_entry(str(puzzles_dir / name)).puzzle
    assert isinstance(puzzle, ColourPuzzle)
    assert set(sat.analyse(puzzle, 10).solutions) == set(ce.analyse(puzzle, 10).solutions)


def _literals(puzzle: ColourPuzzle, grid: tuple[str, ...]) -> set[int]:
    """The cell variables a solution makes true (cell * colours + colour + 1)."""
    k = len(puzzle.palette)
    index = {c.symbol: i for i, c in enumerate(puzzle.palette)}
    return {(r * puzzle.width + c) * k + index[ch] + 1
            for r, row in enumerate(grid) for c, ch in enumerate(row)}


@pytest.mark.heavy
def test_colour_root_clauses_hold_in_every_solution() -> None:
    """What the colour engine proved at its root, as clauses (units for the colours open cells
    lost, binary clauses from each probe), is true of every solution (all of them, from the
    engine's exhausted search), and SAT with them finds the same solutions as without."""
    from gridsolve.nonogram import engine
    from gridsolve.nonogram.backends import cnf
    rng = random.Random(27)
    units = binary = searched = 0
    for _ in range(40):
        colours = rng.randint(2, 4)
        grid = random_grid(rng, rng.randint(6, 12), rng.randint(6, 12), colours,
                           rng.uniform(0.4, 0.7))
        puzzle = colour_puzzle_from_grid(grid, palette(colours))
        every = ce.analyse(puzzle, 300)
        if every.status == "unknown" or len(every.solutions) >= 300:
            continue
        # the whole search, so that probes below the root run too (they must not be kept),
        # and a root cut short by the time limit (what it proved so far)
        whole, root = engine.analyse_colour(puzzle, 300)
        assert set(whole.solutions) == set(every.solutions)
        searched += whole.nodes > 1
        _, cut = engine.analyse_colour(puzzle, 300, SearchLimits(timeout=1e-6))
        for solution in every.solutions:
            true = _literals(puzzle, solution)
            assert all(any(-lit not in true for lit in c)
                       for c in cnf.colour_root_clauses(puzzle, cut.masks, cut.implications))
        clauses = cnf.colour_root_clauses(puzzle, root.masks, root.implications)
        units += sum(len(c) == 1 for c in clauses)
        binary += sum(len(c) == 2 for c in clauses)
        assert all(len(c) in (1, 2) and all(lit < 0 for lit in c) for c in clauses)
        for solution in every.solutions:
            true = _literals(puzzle, solution)
            assert all(any(-lit not in true for lit in c) for c in clauses), solution
        for encoding in ("start", "order"):
            seeded = sat.analyse(puzzle, 300, known=every.partial, extra=clauses,
                                 encoding=encoding)
            assert set(seeded.solutions) == set(every.solutions)
    assert units > 50 and binary > 500 and searched > 5  # the checks above were not vacuous


@pytest.mark.heavy
def test_colour_root_is_kept_when_asked() -> None:
    """Recording is off by default in the compiled search; ``analyse_colour`` gives an empty
    ColourRoot when asked not to keep it, and when a limit stopped the root's probing, what
    it had proved: the picture the puzzle was made from satisfies its clauses."""
    from gridsolve.nonogram import engine
    from gridsolve.nonogram.backends import cnf
    from gridsolve.nonogram.engine import _colour
    rng = random.Random(5)
    puzzle = colour_puzzle_from_grid(random_grid(rng, 30, 30, 3, 0.6), palette(3))
    plain = _colour.Search(puzzle.rows, puzzle.cols, 4)
    plain.next(1)
    assert plain.root_implications() == b"" and len(plain.root_masks()) == 4 * 900
    kept = engine.analyse_colour(puzzle, 2, SearchLimits(max_nodes=1))[1]
    assert len(kept.masks) == 4 * 900 and len(kept.implications) > 10_000
    assert engine.analyse_colour(puzzle, 2, SearchLimits(max_nodes=1), keep_root=False)[1] \
        == engine.ColourRoot(b"", b"")
    picture = _literals(puzzle, random_grid(random.Random(5), 30, 30, 3, 0.6))
    clauses = cnf.colour_root_clauses(puzzle, kept.masks, kept.implications)
    assert clauses and all(any(-lit not in picture for lit in c) for c in clauses)
    for timeout in (1e-9, 0.005, 0.02):  # cut short at some point of the root's probing
        stopped, cut = engine.analyse_colour(puzzle, 2, SearchLimits(timeout=timeout))
        assert not stopped.stats["root_complete"] and len(cut.masks) == 4 * 900
        clauses = cnf.colour_root_clauses(puzzle, cut.masks, cut.implications)
        assert all(any(-lit not in picture for lit in c) for c in clauses)


def test_colour_root_clauses_refuse_malformed_records() -> None:
    from gridsolve.nonogram.backends import cnf
    from array import array
    puzzle = permutations(4, 2)
    masks = array("I", [0b111] * 16).tobytes()
    assert cnf.colour_root_clauses(puzzle, b"", b"") == []
    with pytest.raises(ValueError, match="malformed"):
        cnf.colour_root_clauses(puzzle, masks, array("I", [16 * 3, 0]).tobytes())
    with pytest.raises(ValueError, match="malformed"):
        cnf.colour_root_clauses(puzzle, masks, array("I", [0, 1, 99, 1]).tobytes())
    with pytest.raises(ValueError, match="malformed"):
        cnf.colour_root_clauses(puzzle, masks, array("I", [0, 5, 1, 1]).tobytes())
    with pytest.raises(ValueError, match="malformed"):  # a record cut short
        cnf.colour_root_clauses(puzzle, masks, array("I", [5]).tobytes())
    with pytest.raises(ValueError, match="malformed"):
        cnf.colour_root_clauses(puzzle, masks, array("I", [1, 1, 5, 2, 7]).tobytes())
    fixed = array("I", [0b010] + [0b111] * 15).tobytes()  # cell 0 known: still checked
    with pytest.raises(ValueError, match="malformed"):
        cnf.colour_root_clauses(puzzle, fixed, array("I", [1, 1, 99, 1]).tobytes())
    with pytest.raises(ValueError, match="do not fit"):
        cnf.colour_root_clauses(puzzle, masks[:8], b"")
    # (cell 0, colour 1) rules out colours 0 and 2 of cell 5: two clauses, once each
    twice = array("I", [1, 1, 5, 0b010, 1, 1, 5, 0b010]).tobytes()
    assert cnf.colour_root_clauses(puzzle, masks, twice) == [[-2, -16], [-2, -18]]


def test_auto_dives_on_colour_puzzles_the_dive_is_for() -> None:
    """auto's first turn on a colour puzzle of the colour dive's sizes is the dive and the
    search in turns (0036): on random 26x26 puzzles at 40% background the dive finds two
    solutions in its first turn, every one a solution, with the status SAT gives; a puzzle
    of 600 cells or fewer keeps the plain first turn. (The dive is not declined here however
    little propagation leaves open: ``colour_dive_min_open`` 0.)"""
    rng = random.Random(26)
    dives = replace(DEFAULT_POLICY, colour_dive_min_open=0)
    for colours in (2, 4):
        grid = random_grid(rng, 26, 26, colours, 0.4)
        puzzle = colour_puzzle_from_grid(grid, palette(colours))
        result = analyse(puzzle, 2, SearchLimits(timeout=60), "auto", policy=dives)
        assert result.stats.get("dive_found", 0) >= 1 and "handover" not in result.stats
        assert all(is_colour_solution(puzzle, s) for s in result.solutions)
        assert result.status == sat.analyse(puzzle, 2).status
    small = colour_puzzle_from_grid(random_grid(rng, 24, 25, 2, 0.4), palette(2))
    assert "dive_found" not in analyse(small, 2, method="auto").stats


def test_auto_gives_sat_and_the_colour_turns_turns() -> None:
    """After a first turn cut short (``colour_dive_work`` 1), auto's colour plan gives SAT
    and the colour dive and search turns (``colour_sat_share``) instead of handing the puzzle
    to SAT alone: the statuses are SAT's and the native engine's, every solution checks, and
    two runs give the same nodes and solutions (turns counted in work and conflicts)."""
    rng = random.Random(30)
    policy = replace(DEFAULT_POLICY, colour_dive_work=1)
    for colours in (2, 3):
        grid = random_grid(rng, 26, 26, colours, 0.4)
        puzzle = colour_puzzle_from_grid(grid, palette(colours))
        runs = [analyse(puzzle, 2, SearchLimits(timeout=60), "auto", policy=policy)
                for _ in range(2)]
        first = runs[0]
        assert first.stats["rounds"] >= 1 and "sat_conflicts" in first.stats
        assert first.status == sat.analyse(puzzle, 2).status == ce.analyse(puzzle, 2).status
        assert all(is_colour_solution(puzzle, s) for s in first.solutions)
        assert (first.nodes, first.solutions) == (runs[1].nodes, runs[1].solutions)
    # the one hand-over, as before, with the share 0
    handed = analyse(puzzle, 2, method="auto", policy=replace(policy, colour_sat_share=0))
    assert "rounds" not in handed.stats and handed.stats.get("handover") == 1


def test_colour_turns_count_a_conflict_as_colour_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """In auto's colour turns a SAT conflict counts ``colour_conflict_work`` (0039), not black
    and white's ``conflict_work``: every SAT turn is cut at that rate."""
    from gridsolve.nonogram.backends import workers
    seen: list[tuple[int, int | None]] = []
    turn = workers.SatWorker.turn

    def spy(self: workers.SatWorker, pool: object, work: int | None, nodes: int | None) -> None:
        seen.append((self.rate, work))
        turn(self, pool, work, nodes)  # type: ignore[arg-type]
    monkeypatch.setattr(workers.SatWorker, "turn", spy)
    grid = random_grid(random.Random(30), 26, 26, 2, 0.4)
    puzzle = colour_puzzle_from_grid(grid, palette(2))
    policy = replace(DEFAULT_POLICY, colour_dive_work=1, colour_conflict_work=7)
    result = analyse(puzzle, 2, SearchLimits(timeout=60), "auto", policy=policy)
    assert result.status == sat.analyse(puzzle, 2).status
    assert seen and {rate for rate, _ in seen} == {7} != {policy.conflict_work}
    assert all(work is not None and work % 7 == 0 for _, work in seen)


@pytest.mark.heavy
def test_auto_tells_progress_of_the_colour_turns() -> None:
    """The CLI's live line and the cells it prints at Ctrl-C come from the ``Progress`` auto
    is given: on a colour puzzle of the dive's sizes the colour turns tell it their nodes,
    solutions and how to read their root."""
    from gridsolve.nonogram.engine import Progress
    from tests.nonogram.engine.test_colour_dive import random_puzzle
    puzzle = random_puzzle(2, 30, 2, 0.6)
    progress = Progress()
    result = analyse(puzzle, 2, SearchLimits(timeout=60), "auto", progress=progress)
    assert result.status == "multiple"
    assert progress.nodes == result.nodes and progress.solutions == 2
    assert progress.partial is not None and progress.partial() == result.partial
