"""Files people download (issue 54.13): a .nin that writes its clue block twice is read once
with a warning; picross-solver's GRID/ROWS/COLUMNS files are read."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridsolve.cli import main
from gridsolve.errors import InputWarning, ParseError
from gridsolve.nonogram.formats import (FORMATS, detect_format, iter_entries, parse_entries,
                                        parse_puzzle, write_puzzle)
from gridsolve.nonogram.model import Puzzle, puzzle_from_grid

#: a 3x2 puzzle in .nin: width height, the 2 rows, the 3 columns
NIN = "3 2\n1 1\n3\n2\n1\n2\n"
WANT = Puzzle([[1, 1], [3]], [[2], [1], [2]])


def _clues(p: object) -> tuple[object, object]:
    assert isinstance(p, Puzzle)
    return p.rows, p.cols


@pytest.mark.parametrize("text", [
    NIN + "1 1\n3\n2\n1\n2\n",                     # the whole block again (jwilk data142.nin)
    NIN + "\n1  1\n3\n2\n1\n2\n" * 2,              # twice more, blank lines and spacing aside
])
def test_nin_with_its_clues_written_again_is_read_once_with_a_warning(text: str) -> None:
    for source in ("data142.nin", None):           # by extension, and by content alone
        with pytest.warns(InputWarning, match=r":[78]: the clue block is written again"):
            assert _clues(parse_puzzle(text, source=source)) == _clues(WANT)
    assert detect_format(text).NAME == "nin"


@pytest.mark.parametrize("extra", ["1 1\n", "1 1\n3\n2\n1\n1\n", "2\n1\n2\n"])
def test_nin_with_other_text_after_the_clues_is_refused_at_its_line(extra: str) -> None:
    with pytest.raises(ParseError, match="more than 3 column lines") as caught:
        parse_puzzle(NIN + extra, source="x.nin")
    assert caught.value.line == 7


def test_cli_prints_the_warning_on_one_line_and_solves(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "data142.nin"
    path.write_text(NIN + "1 1\n3\n2\n1\n2\n", encoding="utf-8")
    assert main(["nonogram", "solve", str(path), "--method", "native"]) == 0
    out, err = capsys.readouterr()
    assert err == (f"gridsolve: warning: {path}:7: the clue block is written again from this "
                   "line to line 11; read once\n")
    assert "#.#" in out.replace(" ", "") or "■□■" in out.replace(" ", "")


PICROSS = """# Source: our own
# 3x2
GRID "Bridge" (a test)
ROWS
[ 1 1 ]
[ 3 ]
COLUMNS
[ 2 ]
[ 1 ]
[ 2 ]

GRID Two
ROWS
[ ]
[ 1 ]
COLUMNS
[1]
"""


def test_picross_solver_files_are_read_grid_by_grid() -> None:
    found = list(parse_entries(PICROSS, source="example_input.txt"))
    assert [e.label for e in found] == ["Bridge (a test)", "Two"]
    assert _clues(found[0].puzzle) == _clues(WANT)
    assert found[0].puzzle.title == "Bridge (a test)"
    assert _clues(found[1].puzzle) == (((), (1,)), ((1,),)) or \
        _clues(found[1].puzzle) == (((0,), (1,)), ((1,),))
    assert detect_format(PICROSS, "x.txt").NAME == "picross"
    assert detect_format(PICROSS).NAME == "picross"


def test_picross_solver_round_trip(tmp_path: Path) -> None:
    puzzle = puzzle_from_grid(("##.#", "....", ".###"), title="Round trip")
    text = write_puzzle(puzzle, "picross")
    assert text.startswith("GRID Round trip\nROWS\n[ 2 1 ]\n[ ]\n")
    back = parse_puzzle(text)
    assert _clues(back) == _clues(puzzle) and back.title == "Round trip"
    path = tmp_path / "p.txt"
    path.write_text(text, encoding="utf-8")
    assert len(list(iter_entries(str(path)))) == 1


@pytest.mark.parametrize("text, line, words", [
    ("GRID a\n[ 1 ]\nROWS\n", 2, "outside ROWS and COLUMNS"),
    ("GRID a\nROWS\n[ 1 x ]\nCOLUMNS\n[ 1 ]\n", 3, "'x'"),
    ("GRID a\nROWS\n[ 1\nCOLUMNS\n[ 1 ]\n", 3, r"'\[ numbers \]'"),
    ("GRID a\nROWS\n[ 1 ]\nCOLS\n[ 1 ]\n", 4, "expected GRID, ROWS, COLUMNS"),
    ("GRID a\nROWS\n[ 1 ]\n", 1, "no COLUMNS clues"),
    ("GRID a\nROWS\n[ 2 ]\nCOLUMNS\n[ 1 ]\n", 3, "needs 2 cells"),
])
def test_picross_solver_errors_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(ParseError, match=words) as caught:
        parse_puzzle(text, "picross", "bad.txt")
    assert caught.value.line == line


def test_picross_is_registered() -> None:
    assert "picross" in FORMATS
