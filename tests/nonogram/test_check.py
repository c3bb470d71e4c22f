"""check: one exact line per problem, and the exit codes of check, rate and generate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridsolve.cli import main
from gridsolve.nonogram.check import clue_problems, goal_warning
from gridsolve.nonogram.check import _cells as differing_cells
from gridsolve.nonogram.formats import read_clues
from gridsolve.nonogram.model import Puzzle


def write(tmp_path: Path, text: str, name: str = "p.txt") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_clue_problems_all_at_once_with_lines(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "# too long and too many\n5 5\n1\n--\n2\n1 0\n1\n1\n")
    code, out, err = run(["nonogram", "check", path], capsys)
    assert code == 1 and err == ""
    assert out.splitlines() == [
        f"{path}:2: row 1: clue 5 5 needs 11 cells but the row has 4",
        f"{path}:6: column 2: clue 1 0: 0 may only stand alone, for an empty line",
        f"{path}:4: row clues fill 11 cells but column clues fill 5",
    ]


def test_column_too_long(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "1\n1\n--\n3\n0\n")
    code, out, _ = run(["nonogram", "check", path], capsys)
    assert code == 1
    assert out.splitlines() == [
        f"{path}:4: column 1: clue 3 needs 3 cells but the column has 2",
        f"{path}:3: row clues fill 2 cells but column clues fill 3",
    ]


def test_several_solutions_name_the_cells(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "1\n1\n0\n--\n1\n1\n")
    code, out, _ = run(["nonogram", "check", path], capsys)
    assert code == 1
    assert out == (f"{path}: more than one solution; two of them differ in 4 cells "
                   "(row,column): (1,1) (1,2) (2,1) (2,2)\n")


def test_no_solution(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "1 1\n1\n--\n2\n1\n0\n")
    code, out, _ = run(["nonogram", "check", path], capsys)
    assert code == 1
    assert out == f"{path}: no solution: the clues contradict each other\n"


def test_good_puzzle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "1 1\n3\n--\n2\n1\n2\n")
    code, out, _ = run(["nonogram", "check", path], capsys)
    assert code == 0
    assert out == f"{path}: no problems found: the solution is unique\n"


def test_limit_is_a_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "1\n1\n1\n--\n1\n1\n1\n")
    code, out, _ = run(["nonogram", "check", path, "--max-nodes", "1"], capsys)
    assert code == 1
    assert out == (f"{path}: could not decide whether the solution is unique within "
                   "the limit\n")


def test_many_differing_cells_are_shortened() -> None:
    a = ("#" * 5,) * 5
    b = ("." * 5,) * 5
    text = differing_cells(a, b)
    assert text.startswith("25 cells (row,column): (1,1) (1,2) ")
    assert text.endswith(" (4,5) and 5 more")
    assert text.count("(") == 21


def test_unreadable_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "1 x\n--\n1\n")
    code, out, err = run(["nonogram", "check", path], capsys)
    assert code == 2 and out == ""
    assert err == f"gridsolve: error: {path}:1: 'x' is not a number\n"
    code, _, err = run(["nonogram", "check", str(tmp_path / "missing.txt")], capsys)
    assert code == 2 and err.startswith("gridsolve: error: ") and "\n" == err[-1]


def test_read_clues_of_a_valid_file(tmp_path: Path) -> None:
    path = write(tmp_path, "1 1\n3\n--\n2\n1\n2\n")
    clues = read_clues(path)
    assert clues.rows == ((1, 1), (3,)) and clues.cols == ((2,), (1,), (2,))
    assert clue_problems(clues) == []


def test_rate_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "1 1\n3\n--\n2\n1\n2\n")
    code, out, _ = run(["nonogram", "rate", path], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[:3] == ["unique: yes",
                         "level: line (line logic alone solves it, like a magazine puzzle)",
                         "score: 1/10"]
    assert [line.split(":")[0] for line in lines[3:]] == [
        "line solves", "probes", "search nodes", "max depth", "seconds"]
    code, out, _ = run(["nonogram", "rate", path, "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["unique"] is True and data["level"] == "line"
    assert set(data) == {"file", "width", "height", "unique", "status", "level", "score",
                         "line_solves", "probes", "nodes", "max_depth", "seconds"}


def test_rate_cli_not_unique_still_exits_0(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "1\n1\n--\n1\n1\n")
    code, out, _ = run(["nonogram", "rate", path], capsys)
    assert code == 0 and out.startswith("unique: no: more than one solution\n")


def test_rate_cli_bad_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "5\n--\n1\n")
    code, out, err = run(["nonogram", "rate", path], capsys)
    assert code == 2 and out == ""
    assert err == f"gridsolve: error: {path}:1: row 1: clue 5 needs 5 cells but the row has 1\n"


def test_goal_that_differs_from_the_solvers_answer() -> None:
    puzzle = Puzzle([[1], [1]], [[1], [1]])
    goal = ("#.", ".#")
    assert goal_warning(puzzle, goal, "f.non", ((".#", "#."),), "unique") == (
        "goal stored in f.non differs from the solution at row 1 col 1")
    assert goal_warning(puzzle, goal, "f.non", (("#.", ".#"), (".#", "#.")), "multiple") is None
    assert goal_warning(puzzle, goal, "f.non", (), "unknown") is None
    assert "found no solution" in (goal_warning(puzzle, goal, "f.non", (), "none") or "")
    assert goal_warning(puzzle, ("##", ".."), "f.non", (goal,), "unique") == (
        "goal stored in f.non does not satisfy the clue of row 1")
    assert goal_warning(puzzle, None, "f.non", (goal,), "unique") is None
