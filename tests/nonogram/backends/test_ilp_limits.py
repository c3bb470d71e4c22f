"""The ILP backend within its limits (issue #53.6 and #53.8): what line logic settles needs
no model, only open cells get variables, the build leaves time to write the model, and a
model refused by its size estimate says so."""

from __future__ import annotations

import importlib.util
import pathlib
import random
import subprocess
import sys
import time

import pytest

from gridsolve.nonogram import engine
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.model import Grid, Puzzle, puzzle_from_grid
from tests.nonogram.oracle import all_solutions

pytestmark = pytest.mark.skipif(importlib.util.find_spec("pulp") is None,
                                reason="PuLP (gridsolve[ilp]) not installed")


def _grid(rng: random.Random, width: int, height: int) -> Grid:
    return tuple("".join(rng.choice("#.") for _ in range(width)) for _ in range(height))


def _root(puzzle: Puzzle) -> Grid:
    return engine.analyse(puzzle, 2, SearchLimits(max_nodes=0), probing=False,
                          team=False).partial


def test_a_line_that_line_logic_solves_needs_no_model() -> None:
    """A 1x20,000 line (the columns settle every cell) is answered at the root: unique, no
    CBC run, no model (it built one of 100,000 terms, and at 100,000 cells answered
    unknown at --timeout 20 under load)."""
    from gridsolve.nonogram.backends import ilp
    line = ("#" * 7 + ".") * 2500
    result = ilp.analyse(puzzle_from_grid((line,)), 2, SearchLimits(timeout=60))
    assert (result.status, result.solutions) == ("unique", ((line,),))
    assert result.stats["cbc_runs"] == 0 and "built" not in result.stats


def test_the_root_finds_no_solution_without_a_model() -> None:
    from gridsolve.nonogram.backends import ilp
    result = ilp.analyse(Puzzle([[2], [0]], [[2], [0]]), 2)
    assert (result.status, result.solutions, result.stats["cbc_runs"]) == ("none", (), 0)


def test_only_open_cells_get_variables_and_the_terms_are_counted_exactly() -> None:
    """With the root's cells known, the model has a variable for each open cell only, and
    ``model_terms`` counts its terms exactly, as it does without them."""
    from gridsolve.nonogram.backends import ilp
    rng = random.Random(53)
    tried = 0
    for _ in range(200):
        puzzle = puzzle_from_grid(_grid(rng, rng.randint(2, 9), rng.randint(2, 9)))
        known = _root(puzzle)
        if not any("?" in row for row in known):
            continue
        tried += 1
        model = ilp.build(puzzle, known=known)
        assert model is not None
        prob, xs = model
        assert sum(x is not None for x in xs) == sum(row.count("?") for row in known)
        assert ilp.model_terms(puzzle, known=known) == sum(len(c) for c in prob.constraints())
        assert ilp.model_terms(puzzle, known=known) <= ilp.model_terms(puzzle)
    assert tried >= 20


@pytest.mark.heavy
@pytest.mark.parametrize("seed", range(12))
def test_solutions_with_the_root_match_the_oracle(seed: int) -> None:
    """Every solution, counted to 64, of small puzzles the root leaves open, against brute
    force: the model over the open cells loses none and adds none."""
    from gridsolve.nonogram.backends import ilp
    rng = random.Random(seed)
    while True:
        puzzle = puzzle_from_grid(_grid(rng, rng.randint(3, 5), rng.randint(3, 5)))
        if any("?" in row for row in _root(puzzle)):
            break
    result = ilp.analyse(puzzle, 64)
    assert set(result.solutions) == all_solutions(puzzle)
    assert result.exhausted and result.stats["cbc_runs"] == len(result.solutions) + 1


@pytest.mark.heavy  # (a clock's wait; about 0.5 s)
def test_the_build_stops_with_time_left_to_write_the_model() -> None:
    """A build that cannot finish stops while there is about as much time left as it has
    taken, for the MPS file's write (which cannot look at the clock): it used to stop only
    at the deadline, and the write after it ran past --timeout 20 by 63% under load."""
    from gridsolve.nonogram.backends import ilp
    big = puzzle_from_grid(_grid(random.Random(1), 100, 100))
    started = time.perf_counter()
    deadline = started + 1.0
    assert ilp.build(big, deadline=deadline) is None
    assert time.perf_counter() < deadline


def test_a_model_refused_by_its_estimate_says_so() -> None:
    """Refused by the size estimate at once, the status says the model would be too large
    for the time given, with the estimate (it said the time limit had run out, at 0.016 s
    of 10)."""
    from gridsolve.nonogram.backends import ilp
    big = puzzle_from_grid(_grid(random.Random(1), 100, 100))
    result = ilp.analyse(big, 2, SearchLimits(timeout=10.0))
    assert result.status == "unknown" and result.stats["built"] == 0
    assert result.stats["model_terms"] == ilp.model_terms(big, known=result.partial)
    text = ilp.unbuilt_text(result.stats)
    assert text.startswith("unknown (the model would be too large to build in the time "
                           f"given: up to {result.stats['model_terms']:,} terms, about ")
    assert "time limit ran out" not in text
    assert ilp.unbuilt_text({"built": 0}) == (
        "unknown (the time limit ran out before the model was built)")


@pytest.mark.heavy
@pytest.mark.parametrize("grid", [("#" * 99_999 + ".",), (("#." * 50_000),),
                                  (("#" * 9 + ".") * 10_000,)])
def test_cli_ilp_on_100000_cell_lines_ends_within_its_timeout(
        grid: Grid, tmp_path: pathlib.Path) -> None:
    """``--method ilp --timeout 20`` on 100,000-cell lines that line logic solves: solved,
    well within the timeout (32.7 s under load, and unknown)."""
    from gridsolve.nonogram.formats.text import dump
    path = tmp_path / "line.txt"
    path.write_text(dump(puzzle_from_grid(grid)))
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "gridsolve", "nonogram", "solve", str(path),
                           "--method", "ilp", "--timeout", "20"],
                          capture_output=True, text=True, timeout=120)
    assert time.perf_counter() - started < 20 + 2.0
    assert done.stdout.strip().splitlines()[-1] == "status: unique solution", done.stderr


@pytest.mark.heavy
def test_cli_ilp_with_a_model_ends_within_its_timeout(tmp_path: pathlib.Path) -> None:
    """A puzzle whose model is built and CBC run (random 40x40) ends within max(0.5 s, 10%)
    of ``--timeout 5`` (the write and CBC are bounded by the deadline)."""
    from gridsolve.nonogram.formats.text import dump
    path = tmp_path / "r40.txt"
    path.write_text(dump(puzzle_from_grid(_grid(random.Random(4), 40, 40))))
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "gridsolve", "nonogram", "solve", str(path),
                           "--method", "ilp", "--timeout", "5"],
                          capture_output=True, text=True, timeout=120)
    assert time.perf_counter() - started < 5 + 0.5 + 0.5  # and the process's start
    assert done.stdout.strip().splitlines()[-1].startswith("status: "), done.stderr
