"""check on colour puzzles: every clue problem at once, in black and white's words and exit
codes (0 no problems, 1 problems found, 2 unreadable), in each format that reads colour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridsolve.cli import main
from gridsolve.nonogram.check import check, clue_problems
from gridsolve.nonogram.formats import read_clues
from gridsolve.nonogram.model import BLACK, WHITE, Colour, RawColourClues

MUSHROOM = Path(__file__).resolve().parents[2] / "src/gridsolve/examples/mushroom.json"
RED, CREAM = Colour("red", (204, 34, 34), "r"), Colour("cream", (255, 244, 214), "w")


def json_puzzle(rows: list[list[list[int]]], cols: list[list[list[int]]]) -> str:
    """A gridsolve JSON colour puzzle (white, red, cream), one clue per line from line 5."""
    palette = [{"name": c.name, "rgb": c.hex, "symbol": c.symbol} for c in (WHITE, RED, CREAM)]
    return "\n".join([
        "{", '"format": "gridsolve-nonogram", "version": 1,',
        '"palette": ' + json.dumps(palette) + ",",
        '"rows": [', ",\n".join(map(json.dumps, rows)), "],",
        '"cols": [', ",\n".join(map(json.dumps, cols)), "]", "}", ""])


def run(path: Path, capsys: pytest.CaptureFixture[str],
        *more: str) -> tuple[int, list[str], str]:
    code = main(["nonogram", "check", str(path), *more])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_the_bundled_colour_example_has_no_problems(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(MUSHROOM, capsys)
    assert (code, out, err) == (0, [f"{MUSHROOM}: no problems found: the solution is unique"],
                                "")


def test_a_colours_totals_that_disagree_are_named(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.json"  # red: rows paint 1 + 1, columns 2 + 1
    path.write_text(json_puzzle([[[1, 1], [1, 2]], [[1, 1]]], [[[2, 1]], [[1, 2], [1, 1]]]))
    code, out, err = run(path, capsys)
    assert (code, err) == (1, "")
    assert out == [f"{path}: colour 'red': row clues fill 2 cells but column clues fill 3"]


def test_every_clue_problem_at_once_with_its_line(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.json"
    # row 1: 2r 1r needs 4 cells of 3; column 2: 0 with a block; red and cream totals differ
    path.write_text(json_puzzle([[[2, 1], [1, 1]], [[1, 2], [1, 1]]],
                                [[[1, 1]], [[0, 1], [1, 2]], [[1, 2]]]))
    code, out, _ = run(path, capsys)
    assert code == 1
    assert out == [
        f"{path}:5: row 1: clue 2r 1r needs 4 cells but the row has 3",
        f"{path}:10: column 2: clue 0 1w: 0 may only stand alone, for an empty line",
        f"{path}: colour 'red': row clues fill 4 cells but column clues fill 1",
        f"{path}: colour 'cream': row clues fill 1 cells but column clues fill 2",
    ]


def test_different_colours_need_no_gap(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.json"  # "rw" then "wr": 1r 1w fits a row of two
    path.write_text(json_puzzle([[[1, 1], [1, 2]], [[1, 2], [1, 1]]],
                                [[[1, 1], [1, 2]], [[1, 2], [1, 1]]]))
    code, out, _ = run(path, capsys)
    assert (code, out) == (0, [f"{path}: no problems found: the solution is unique"])


def test_several_solutions_and_none(tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "many.json"  # one red cell in each row and column of a 2x2
    path.write_text(json_puzzle([[[1, 1]], [[1, 1]]], [[[1, 1]], [[1, 1]]]))
    code, out, _ = run(path, capsys)
    assert (code, out) == (1, [f"{path}: more than one solution; two of them differ in 4 cells "
                                "(row,column): (1,1) (1,2) (2,1) (2,2)"])
    path = tmp_path / "none.json"  # totals agree; column 1 ends cream, row 2 starts red
    path.write_text(json_puzzle([[[1, 1], [1, 2]]] * 2, [[[1, 1], [1, 2]]] * 2))
    code, out, _ = run(path, capsys)
    assert (code, out) == (1, [f"{path}: no solution: the clues contradict each other"])


def test_the_limit_is_a_problem(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(MUSHROOM, capsys, "--max-nodes", "1")
    assert code in (0, 1)  # line logic may settle the mushroom before a single node
    assert out[0].endswith(("no problems found: the solution is unique",
                            "could not decide whether the solution is unique within the limit"))


@pytest.mark.parametrize(("name", "text", "problem"), [
    ("p.g", "#d\n r:r red\n b:b blue\n: rows\n1r 1b\n1r\n: columns\n2r\n1r\n",
     "colour 'blue': row clues fill 1 cells but column clues fill 0"),
    ("p.g", "#d\n r:r red\n: rows\n3r\n1r\n: columns\n2r\n1r\n",
     ":4: row 1: clue 3r needs 3 cells but the row has 2"),
    ("p.txt", "[colors]\nb = (blue) *\nr = (red)\n[clues]\nrows = 2b 1r\n"
              "columns = 1b, 1b, 1b\n",
     "colour 'blue': row clues fill 2 cells but column clues fill 3"),
    ("p.xml", '<puzzleset><puzzle defaultcolor="red">\n<color name="white" char=".">fff'
              '</color>\n<color name="red" char="r">f00</color>\n<color name="blue" char="b">'
              '00f</color>\n<clues type="rows"><line><count>1</count></line></clues>\n'
              '<clues type="columns"><line><count color="blue">1</count></line></clues>\n'
              "</puzzle></puzzleset>",
     "colour 'red': row clues fill 1 cells but column clues fill 0"),
])
def test_each_colour_format(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                            text: str, problem: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    code, out, err = run(path, capsys)
    assert (code, err) == (1, "")
    assert any(line.startswith(str(path)) and line.endswith(problem) for line in out), out


def test_an_unreadable_colour_file_exits_2(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.json"
    path.write_text(json_puzzle([[[1, 3]]], [[[1, 1]]]))
    code, out, err = run(path, capsys)
    assert (code, out) == (2, [])
    assert err == f"gridsolve: error: {path}:5: rows[0]: colour 3 is not in the palette (1..2)\n"


def test_read_clues_reads_a_colour_puzzle_as_written(tmp_path: Path) -> None:
    clues = read_clues(str(MUSHROOM))
    assert isinstance(clues, RawColourClues)
    assert clues.palette[2].name == "cream" and clues.rows[0] == ((4, 1),)
    assert clue_problems(clues) == []
    path = tmp_path / "p.json"
    path.write_text(json_puzzle([[[1, 1], [1, 2]], [[1, 1]]], [[[2, 1]], [[1, 2], [1, 1]]]))
    bad = read_clues(str(path))
    assert isinstance(bad, RawColourClues) and bad.row_lines == (5, 6)
    assert [p.message for p in clue_problems(bad)] == [
        "colour 'red': row clues fill 2 cells but column clues fill 3"]


def test_check_of_clues_with_one_black_colour() -> None:
    """A one-colour puzzle in colour clues checks as its black-and-white twin does."""
    clues = RawColourClues((((1, 1),), ((2, 1),)), (((2, 1),), ((1, 1),)), (WHITE, BLACK))
    assert check(clues) == []
    wide = RawColourClues((((1, 1), (1, 1)),), (((1, 1),), ((1, 1),)), (WHITE, BLACK))
    assert [p.message for p in check(wide)] == [
        "row 1: clue 1# 1# needs 3 cells but the row has 2"]


def test_a_negative_number_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A JSON colour clue of -1 (the readers take any integer there) is a problem of its own,
    named even when the totals disagree too (found by a review: only the totals were)."""
    path = tmp_path / "p.json"
    path.write_text(json_puzzle([[[-1, 1], [1, 1]], [[1, 1]]], [[[1, 1]], [[1, 1]]]))
    code, out, _ = run(path, capsys)
    assert code == 1
    assert out[0].startswith(f"{path}:5: row 1: clue ") and "cannot be shorter" in out[0], out
