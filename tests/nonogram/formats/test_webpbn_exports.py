"""The clue formats of webpbn's export page that other solvers read: nin, faase, ish, makhorin,
syro, and ss (Simpson's .non). Each reads its documented layout, is detected by extension and
by content, reports malformed input on one line naming the line, and round-trips real puzzles.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gridsolve.cli import main
from gridsolve.errors import ParseError
from gridsolve.nonogram.formats import (FORMATS, detect_format, iter_entries, parse_puzzle,
                                        write_puzzle)
from gridsolve.nonogram.model import Puzzle, puzzle_from_grid

NEW = ("nin", "faase", "ish", "makhorin", "syro")

#: Our own 5x3 picture; its clues in every layout below.
GRID = ("##.#.",
        ".....",
        "#.###")
PUZZLE = puzzle_from_grid(GRID)
ROWS = ((2, 1), (), (1, 3))
COLS = ((1, 1), (1,), (1,), (1, 1), (1,))

#: Each format as its documentation lays it out, with the comments and spacing it allows.
SAMPLES = {
    "nin": "5 3\n2 1\n0\n1 3\n1 1\n1\n1\n1 1\n1\n",
    "faase": "# by us\nwidth 5\nheight 3\n\nrows\n2 1\n0\n1 3\n\ncolumns\n1 1\n1\n1\n1 1\n1\n",
    "ish": "# our own\n2,1\n0\n1,3\n\n1,1\n1\n1\n1,1\n1\n",
    "makhorin": "* rows\n2 1\n0\n1 3\n&\n* columns\n1 1\n1\n1\n1 1\n1\n",
    "syro": "# our own\n2 1 0\n0\n1 3 0\n#\n1 1 0\n1 0\n1 0\n1 1 0\n1 0\n#\n",
}


def test_clues_agree_with_the_picture() -> None:
    assert (PUZZLE.rows, PUZZLE.cols) == (ROWS, COLS)


@pytest.mark.parametrize("fmt", NEW)
def test_sample_reads_and_is_detected(fmt: str) -> None:
    text = SAMPLES[fmt]
    assert parse_puzzle(text, fmt) == PUZZLE
    assert detect_format(text, "x." + fmt).NAME == fmt
    assert parse_puzzle(text) == PUZZLE  # by content alone, whatever format reads it
    assert parse_puzzle(write_puzzle(PUZZLE, fmt), fmt) == PUZZLE


@pytest.mark.parametrize(("fmt", "name"), [
    ("nin", "nin"), ("makhorin", "makhorin"), ("syro", "syro"), ("ish", "ish"),
])
def test_content_detection_names_the_format(fmt: str, name: str) -> None:
    """Without a file name, the distinctive layouts are recognised as what they are."""
    assert detect_format(SAMPLES[fmt]).NAME == name


def test_faase_without_size_lines() -> None:
    text = "rows\n2 1\n0\n1 3\ncolumns\n1 1\n1\n1\n1 1\n1\n"
    assert detect_format(text).NAME == "faase"
    assert parse_puzzle(text) == PUZZLE


def test_empty_line_is_an_empty_clue_in_nin() -> None:
    assert parse_puzzle("5 3\n2 1\n\n1 3\n1 1\n1\n1\n1 1\n1\n", "nin") == PUZZLE


# (format, text, line the error must name (None: none), words the message must contain)
BAD: list[tuple[str, str, int | None, str]] = [
    ("nin", "5\n1\n", 1, "'WIDTH HEIGHT'"),
    ("nin", "2 2\n1\n1\n2\n", 4, "expected 2 column lines, found 1"),
    ("nin", "1 1\n1\n1\n1\n", 4, "more than 1 column lines"),
    ("nin", "1 1\n1\nx\n", 3, "'x' is not a number"),
    ("nin", "0 3\n", 1, "at least one row and one column"),
    ("nin", "1 1\n2\n1\n", 2, "needs 2 cells"),
    ("faase", "rows\n1\n", None, "no 'columns' section"),
    ("faase", "width 2\nrows\n1\ncolumns\n1\n", 1, "width 2, but 1 column lines follow"),
    ("faase", "title x\nrows\n1\ncolumns\n1\n", 1, "unexpected line before 'rows'"),
    ("faase", "rows\n1\ncolumns\n1\nrows\n1\n", 5, "a second 'rows' line"),
    ("faase", "rows\n1 q\ncolumns\n1\n", 2, "'q' is not a number"),
    ("ish", "1\n\n1\n\n1\n", 4, "more than one blank-line gap"),
    ("ish", "1\n1\n", None, "no blank line"),
    ("ish", "1,x\n\n1\n", 1, "'x' is not a number"),
    ("makhorin", "1\n1\n", None, "no '&' line"),
    ("makhorin", "1\n&\n1\n&\n", 4, "a second '&' line"),
    ("makhorin", "&\n1\n", 1, "no row clues"),
    ("makhorin", "* c\n1\n&\n2\n", 4, "needs 2 cells"),
    ("syro", "1 0\n1 0\n", None, "no '#' line"),
    ("syro", "1 0\n#\n1\n#\n", 3, "must end with 0"),
    ("syro", "1 0\n#\n1 0\n#\n1 0\n", 5, "after the column clues"),
    ("syro", "1 0\n#\nq 0\n", 3, "'q' is not a number"),
    # A section or block that is there but empty names its line, not a missing separator.
    ("faase", "rows\ncolumns\n1\n", 1, "'rows' line is followed by no clue lines"),
    ("faase", "# c\nrows\n1\ncolumns\n\n", 4, "'columns' line is followed by no clue lines"),
    ("ish", "# c\n1,1\n0\n\n", 4, "no column clues after the blank line"),
    ("syro", "1 0\n0\n#\n", 3, "no column clues after the '#' line"),
    ("syro", "# c\n1 0\n# end of rows\n# columns\n", 3, "no column clues after the '#' line"),
]


@pytest.mark.parametrize(("fmt", "text", "line", "words"), BAD)
def test_malformed_input(fmt: str, text: str, line: int | None, words: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_puzzle(text, fmt, "bad.file")
    assert words in str(info.value)
    assert info.value.line == line
    assert str(info.value).startswith("bad.file")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("fmt", NEW)
def test_cli_bad_file_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          fmt: str) -> None:
    path = tmp_path / f"bad.{fmt}"
    path.write_text("1 x 2\n")
    assert main(["nonogram", "solve", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(f"gridsolve: error: {path}")


@pytest.mark.parametrize("fmt", NEW)
def test_cli_solves_and_converts(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 fmt: str) -> None:
    src = tmp_path / f"p.{fmt}"
    src.write_text(SAMPLES[fmt])
    assert main(["nonogram", "solve", "--ascii", str(src)]) == 0
    assert capsys.readouterr().out.split()[:3] == list(GRID)
    out = tmp_path / "p.non"
    assert main(["nonogram", "convert", str(src), str(out)]) == 0
    assert parse_puzzle(out.read_text(), "non") == PUZZLE
    back = tmp_path / f"back.{fmt}"
    assert main(["nonogram", "convert", str(out), str(back)]) == 0
    assert back.read_text() == write_puzzle(PUZZLE, fmt)


# Simpson's own spec (webpbn's "ss"): 'rows N'/'columns N' give the size, maxrule is
# obsolete, blank lines among clues are skipped.
SIMPSON = """title "Ours"
maxrule 2
columns 5
rows 3

rows
2,1
0

1,3

columns
1,1
1

1
1,1
1
"""


def test_simpson_spec_file() -> None:
    puzzle = parse_puzzle(SIMPSON, source="x.non")
    assert (puzzle.rows, puzzle.cols, puzzle.title) == (ROWS, COLS, "Ours")


def test_ss_is_an_alias_of_non(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_puzzle(SIMPSON, "ss") == parse_puzzle(SIMPSON, "non")
    assert write_puzzle(PUZZLE, "ss") == write_puzzle(PUZZLE, "non")
    path = tmp_path / "webpbn000001"  # webpbn's export names files without a suffix
    path.write_text(SIMPSON)
    assert main(["nonogram", "solve", "--ascii", "--format", "ss", str(path)]) == 0
    assert capsys.readouterr().out.split()[:3] == list(GRID)


def test_blank_lines_still_mean_empty_clues_when_the_count_needs_them() -> None:
    """nonogram-db and pbnsolve read a blank line as an empty clue: 3 rows, one blank."""
    text = "width 5\nheight 3\nrows\n2,1\n\n1,3\ncolumns\n1,1\n1\n1\n1,1\n1\n"
    assert parse_puzzle(text, "non") == PUZZLE


def real_puzzles(root: Path) -> list[tuple[str, Puzzle]]:
    found = []
    for path in sorted((root / "nonogram-db").glob("db/**/*.non")):
        for entry in iter_entries(str(path)):
            assert isinstance(entry.puzzle, Puzzle)
            found.append((path.name, entry.puzzle))
    return found


@pytest.mark.parametrize("fmt", NEW)
def test_real_puzzles_round_trip(puzzles_dir: Path, fmt: str) -> None:
    """Every nonogram-db puzzle (../shared/puzzles) written in the format reads back the same,
    by the format's name, by its extension and by content alone."""
    puzzles = real_puzzles(puzzles_dir)
    if not puzzles:
        pytest.skip("nonogram-db not present")
    for name, puzzle in puzzles:
        text = write_puzzle(puzzle, fmt)
        bare = Puzzle(puzzle.rows, puzzle.cols)
        assert parse_puzzle(text, fmt) == bare, name
        assert detect_format(text, "x" + FORMATS[fmt].EXTENSIONS[0]).NAME == fmt, name
        assert parse_puzzle(text) == bare, name


# A 4x4 picture of our own, and each format as its tools write it (comment headers, CRLF
# line endings, trailing blanks, no final newline), read clue for clue.
GRID4 = ("#.##",
         "....",
         "###.",
         ".#.#")
ROWS4 = ((1, 2), (), (3,), (1, 1))
COLS4 = ((1, 1), (2,), (1, 1), (1, 1))

REAL = {
    # comments first, rows, one blank line, columns; comma-separated, 0 for an empty clue
    "ish": "# Four by four\n# by us\n1,2\n0\n3 \n1,1\n\n1,1\n2\n1,1\n1,1\n",
    # every clue ends with 0, a lone 0 is an empty clue; a '#' line ends the rows and one
    # ends the columns (comments before the clues, and labels on the '#' lines)
    "syro": ("# Four by four\n# by us\n1 2 0\n0\n3 0 \n1\t1 0\n# end of rows\n1 1 0\n2 0\n"
             "1 1 0\n1 1 0\n#\n"),
    # size lines, then a 'rows' and a 'columns' section; blank lines and '#' comments between
    "faase": ("# Four by four\nwidth 4\nheight 4\n\nrows\n1 2\n0\n3\n1 1\n\n# the columns\n"
              "columns\n1 1\n2\n1 1\n1 1\n"),
}


def test_real_layout_clues_agree_with_the_picture() -> None:
    assert (puzzle_from_grid(GRID4).rows, puzzle_from_grid(GRID4).cols) == (ROWS4, COLS4)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("final", [True, False])
@pytest.mark.parametrize("fmt", ["ish", "syro", "faase"])
def test_real_layout_reads_clue_for_clue(fmt: str, newline: str, final: bool) -> None:
    text = REAL[fmt].replace("\n", newline)
    if not final:
        text = text.removesuffix(newline)
    puzzle = parse_puzzle(text, fmt, "real")
    assert (puzzle.rows, puzzle.cols) == (ROWS4, COLS4)
    assert parse_puzzle(text, source="real." + fmt) == puzzle  # by extension


def test_ish_takes_spaces_and_comment_lines_between_the_blocks() -> None:
    text = "1 2\n0\n3\n1 1\n\n# columns\n\n1 1\n2\n1 1\n1 1\n# end\n"
    puzzle = parse_puzzle(text, "ish")
    assert (puzzle.rows, puzzle.cols) == (ROWS4, COLS4)


def test_syro_without_the_closing_hash_line() -> None:
    """nonogrid reads the columns to the end of the file; so do we."""
    text = "1 2 0\n0\n3 0\n1 1 0\n#\n1 1 0\n2 0\n1 1 0\n1 1 0\n"
    puzzle = parse_puzzle(text, "syro")
    assert (puzzle.rows, puzzle.cols) == (ROWS4, COLS4)
    assert detect_format(text).NAME == "syro"


def test_faase_without_size_lines_columns_first() -> None:
    text = "columns\n1 1\n2\n1 1\n1 1\nrows\n1 2\n0\n3\n1 1\n"
    puzzle = parse_puzzle(text, "faase")
    assert (puzzle.rows, puzzle.cols) == (ROWS4, COLS4)
