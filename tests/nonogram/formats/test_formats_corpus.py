"""Every file of the shared corpora reads (or fails clearly), is detected right, and agrees."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridsolve.errors import ParseError
from gridsolve.nonogram.engine import count
from gridsolve.nonogram.formats import bw_only, detect_format, iter_entries, read_puzzle, read_text
from gridsolve.nonogram.model import Puzzle, is_any_solution

#: folder -> (glob, expected format) for every puzzle file of the shared corpora.
LAYOUT = {
    "nonogramrecord-tournaments": [("question/*.txt", "tournament")],
    "puzzlekit-janko": [("*.json", "puzzlekit")],
    "nonogram-db": [("db/**/*.non", "non")],
    "glpk-pbn": [("*.dat", "glpk")],
    "gramcracker-survey": [("*.txt", "keen")],
    "olsak-examples-via-pbnsolve": [("*.mk", "mk"), ("*.g", "g")],
    "pynogram-examples": [("*.txt", "pynogram")],
    "nonogrid-examples": [("*.toml", "pynogram"), ("spoj/*.txt", "spoj")],
    "cgi-lab-lalafrogkk": [("*.txt", "tournament")],
}

GLUED = {"brontik.g", "noty.g"}  # Malované křížovky glued triangles: no colour nonogram
TRIDDLERS = {"creature.g", "tkocka.g", "vcely.g"}


def files(root: Path, folder: str) -> list[tuple[Path, str]]:
    return sorted((p, fmt) for pattern, fmt in LAYOUT[folder]
                  for p in (root / folder).glob(pattern))


def test_every_file_is_detected_as_its_format(puzzles_dir: Path) -> None:
    seen = 0
    for folder in LAYOUT:
        for path, fmt in files(puzzles_dir, folder):
            text = read_text(str(path))
            assert detect_format(text, str(path)).NAME == fmt, path
            seen += 1
    assert seen == 30 + 1 + 39 + 14 + 9 + 46 + 16 + 4 + 1


def test_detection_by_content_alone(puzzles_dir: Path) -> None:
    """Without the file name the content still decides (the tournament set aside: size)."""
    for folder in LAYOUT:
        if folder == "nonogramrecord-tournaments":
            continue
        for path, fmt in files(puzzles_dir, folder):
            assert detect_format(read_text(str(path))).NAME == fmt, path


# folder -> (puzzles read, files refused for glued triangles, files refused as triddlers)
COUNTS = {
    "nonogram-db": (39, 0, 0),
    "glpk-pbn": (14, 0, 0),
    "gramcracker-survey": (9, 0, 0),
    "olsak-examples-via-pbnsolve": (27 + 5 + 9, 2, 3),
    "pynogram-examples": (16, 0, 0),
    "nonogrid-examples": (3 + 3, 0, 0),
    "cgi-lab-lalafrogkk": (1, 0, 0),
}


@pytest.mark.parametrize("folder", sorted(COUNTS))
def test_every_file_reads_or_fails_clearly(puzzles_dir: Path, folder: str) -> None:
    read = glued = triddler = 0
    for path, _ in files(puzzles_dir, folder):
        try:
            read += sum(1 for _ in iter_entries(str(path)))
        except ParseError as exc:
            assert exc.source == str(path) and exc.line is not None
            if "glued triangles" in str(exc):
                assert path.name in GLUED
                glued += 1
            elif "triddlers are not supported" in str(exc):
                assert path.name in TRIDDLERS
                triddler += 1
            else:
                raise
    assert (read, glued, triddler) == COUNTS[folder]


def test_tournament_set_with_goals(puzzles_dir: Path) -> None:
    path = puzzles_dir / "nonogramrecord-tournaments" / "question" / "taai2011.txt"
    entries = list(iter_entries(str(path)))
    assert len(entries) == 1000
    assert [e.label for e in entries[:3]] == ["1", "2", "3"]
    assert all(e.puzzle.size == "25x25" for e in entries)
    assert all(e.goal is not None and is_any_solution(e.puzzle, e.goal) for e in entries)


@pytest.mark.slow
def test_all_tournament_sets_with_goals(puzzles_dir: Path) -> None:
    total = 0
    for path, _ in files(puzzles_dir, "nonogramrecord-tournaments"):
        for e in iter_entries(str(path)):
            assert e.goal is not None and is_any_solution(e.puzzle, e.goal), (path, e.label)
            total += 1
    assert total == 30_000


@pytest.mark.heavy
def test_puzzlekit_goals(puzzles_dir: Path) -> None:
    path = puzzles_dir / "puzzlekit-janko" / "Nonogram_dataset.json"
    entries = list(iter_entries(str(path)))
    assert len(entries) == 2338
    with_goal = [e for e in entries if e.goal is not None]
    assert len(with_goal) == 2337
    assert [e.label for e in entries if e.goal is None] == ["221_10x10"]
    assert all(is_any_solution(e.puzzle, e.goal) for e in with_goal if e.goal)
    sizes = {e.puzzle.size for e in entries}
    assert "10x5" in sizes or "5x10" in sizes


def test_nonogram_db_goals(puzzles_dir: Path) -> None:
    for path, _ in files(puzzles_dir, "nonogram-db"):
        (entry,) = iter_entries(str(path))
        assert entry.goal is not None and is_any_solution(entry.puzzle, entry.goal), path
    dancer = next(iter_entries(str(puzzles_dir / "nonogram-db/db/webpbn/1.non")))
    assert dancer.label == "Dancer" and dancer.puzzle.size == "5x10"


def read(root: Path, rel: str) -> Puzzle:
    return bw_only(read_puzzle(str(root / rel)), "these tests")


SAME = [  # the same webpbn survey puzzle stored in two formats
    ("glpk-pbn/dancer.dat", "nonogram-db/db/webpbn/1.non"),
    ("glpk-pbn/cat.dat", "nonogram-db/db/webpbn/6.non"),
    ("glpk-pbn/knot.dat", "nonogram-db/db/webpbn/16.non"),
    ("glpk-pbn/skid.dat", "nonogram-db/db/webpbn/21.non"),
    ("glpk-pbn/swing.dat", "nonogram-db/db/webpbn/529.non"),
    ("glpk-pbn/cat.dat", "gramcracker-survey/cat6.txt"),
    ("glpk-pbn/knot.dat", "gramcracker-survey/knot16.txt"),
    ("glpk-pbn/swing.dat", "gramcracker-survey/swing529.txt"),
    ("glpk-pbn/edge.dat", "gramcracker-survey/edge23.txt"),
    ("nonogram-db/db/webpbn/26167.non", "gramcracker-survey/bloop_bloop26167.txt"),
    ("nonogrid-examples/MLP.toml", "pynogram-examples/MLP.txt"),
    ("nonogrid-examples/hello.toml", "pynogram-examples/hello.txt"),
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_same_puzzle_in_two_formats(puzzles_dir: Path, a: str, b: str) -> None:
    pa, pb = read(puzzles_dir, a), read(puzzles_dir, b)
    assert (pa.rows, pa.cols) == (pb.rows, pb.cols)


def test_spoj_holds_9dom(puzzles_dir: Path) -> None:
    entries = list(iter_entries(str(puzzles_dir / "nonogrid-examples/spoj/puzzles.txt")))
    assert [(e.label, e.puzzle.height, e.puzzle.width) for e in entries] == [
        ("1", 10, 5), ("2", 25, 25), ("3", 19, 19)]
    assert entries[2].puzzle == read(puzzles_dir, "glpk-pbn/9dom.dat")


def test_lalafrogkk_pynogram_copy_is_transposed(puzzles_dir: Path) -> None:
    """pynogram read the tournament file's first 25 lines as rows; they are columns."""
    ours = read(puzzles_dir, "cgi-lab-lalafrogkk/PuzzleCannotSolve.txt")
    theirs = read(puzzles_dir, "pynogram-examples/LalaFrogKK.txt")
    assert (ours.rows, ours.cols) == (theirs.cols, theirs.rows)


@pytest.mark.parametrize(("name", "solutions"), [("sachovnice.g", 2), ("veze.g", 24)])
def test_olsak_g_solution_counts(puzzles_dir: Path, name: str, solutions: int) -> None:
    puzzle = read(puzzles_dir, f"olsak-examples-via-pbnsolve/{name}")
    assert count(puzzle) == solutions
