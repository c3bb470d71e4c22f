"""rate on colour puzzles: the black-and-white levels and score table, from the colour engine's
work; the same verdict every time; an easy puzzle below a hard one; the command's output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.formats import iter_entries, read_puzzle
from gridsolve.nonogram.model import ColourPuzzle, as_colour, puzzle_from_grid
from gridsolve.nonogram.rate import SCORE_TABLE, rate, score_of, work_of
from tests.cli.test_nonogram import run
from tests.nonogram.oracle import all_colour_solutions
from tests.nonogram.test_hints_colour import EXAMPLE, random_puzzle

PUZZLES = Path("/work/shared/puzzles")


def test_the_mushroom_is_a_line_puzzle_scored_from_its_sweeps() -> None:
    puzzle = read_puzzle(str(EXAMPLE))
    rating = rate(puzzle)
    assert (rating.unique, rating.status, rating.level, rating.probes, rating.nodes) == (
        True, "unique", "line", 0, 1)
    work = work_of("line", puzzle, rating.line_solves, 0, 1)
    assert work == rating.line_solves / 24 and rating.score == score_of("line", work) == 1


def test_the_same_rating_twice() -> None:
    puzzle, _ = random_puzzle(9, 10)
    first, second = rate(puzzle), rate(puzzle)
    fields = ("status", "level", "score", "line_solves", "probes", "nodes", "max_depth")
    assert [getattr(first, f) for f in fields] == [getattr(second, f) for f in fields]


def test_an_easy_puzzle_scores_below_a_hard_one() -> None:
    """The mushroom (line logic alone) against a 10x10 of three colours that needs probing,
    and one with two solutions (search): levels and scores in that order."""
    easy = rate(read_puzzle(str(EXAMPLE)))
    hard_puzzle, picture = random_puzzle(9, 10)
    hard = rate(hard_puzzle)
    assert hard.status == "unique" and hard.level == "probe" and hard.probes > 0
    two = random_puzzle(0, 5)[0]
    assert len(all_colour_solutions(two)) > 1
    search = rate(two)
    assert (search.status, search.level, search.unique) == ("multiple", "search", False)
    assert easy.score is not None and hard.score is not None and search.score is not None
    assert easy.score < hard.score < search.score
    low, high = SCORE_TABLE["probe"][0]
    assert low <= hard.score <= high


def test_a_one_colour_puzzle_rates_as_its_black_and_white_twin() -> None:
    """The colour engine's work on a one-colour copy gives the level the black-and-white
    engine's does (both line logic here; the counts are each engine's own)."""
    grid = ("##.#.", ".###.", "#.#.#", ".##..", "#...#")
    bw = puzzle_from_grid(grid)
    assert rate(bw).level == rate(as_colour(bw)).level == "line"


def test_rate_command_on_a_colour_file(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "nonogram", "rate", "--json", str(EXAMPLE))
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert (data["width"], data["unique"], data["level"], data["score"]) == (12, True, "line", 1)


@pytest.mark.slow
def test_the_colour_corpus_is_rated() -> None:
    """Every colour puzzle of the Olšák examples gets a level and a score in its level's
    range, within a generous limit."""
    folder = PUZZLES / "olsak-examples-via-pbnsolve"
    if not folder.is_dir():
        pytest.skip("the shared puzzles are not here")
    rated = 0
    for path in sorted(folder.glob("*.g")):
        try:
            entries = list(iter_entries(str(path)))
        except Exception:  # triddlers and glued triangles are refused by the reader
            continue
        for entry in entries:
            if not isinstance(entry.puzzle, ColourPuzzle):
                continue
            rating = rate(entry.puzzle, SearchLimits(timeout=60))
            assert rating.level is not None and rating.score is not None, path
            low, high = SCORE_TABLE[rating.level][0]
            assert low <= rating.score <= high, path
            rated += 1
    assert rated >= 8
