""".non sections hold exactly their declared count of clue lines: a clue line left over after
a `rows` or `columns` section is an error naming its line (it used to be dropped, and a
different puzzle solved), while the lines real files put there (blank lines, unknown keys,
comments) still read."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridsolve.cli import main
from gridsolve.errors import ParseError
from gridsolve.nonogram.formats import parse_entries, parse_puzzle, read_puzzle

#: 2x2, rows "1", "1", columns "1", "1" (two solutions, but it reads)
ROWS_2 = "width 2\nheight 2\nrows\n1\n1\n"
COLS_2 = "columns\n1\n1\n"

#: The bundled heart (9x8) as a .non file.
HEART = ("width 9\nheight 8\n\nrows\n2,2\n4,4\n9\n9\n7\n5\n3\n1\n\n"
         "columns\n3\n5\n6\n6\n6\n6\n6\n5\n3\n")

# (text, line the error must name, message)
EXTRA: list[tuple[str, int, str]] = [
    # the fuzz case non_extra_row.non: height 2, three row lines
    (ROWS_2 + "2\n" + COLS_2, 6, "more than 2 row lines"),
    # the same, with a blank line after the section
    (ROWS_2 + "2\n\n" + COLS_2, 6, "more than 2 row lines"),
    # a blank line among the clues: the third clue line is too many, however it is read
    ("width 2\nheight 2\nrows\n1\n\n1\n1\n" + COLS_2, 7, "more than 2 row lines"),
    # the fuzz case non_extra_lines.non: the heart and two more column lines at the end
    (HEART + "7\n7\n", 24, "more than 9 column lines"),
    # extra column lines before a goal, and a lone 0 (an empty clue) counts too
    (ROWS_2 + COLS_2 + "0\n\ngoal \"1001\"\n", 9, "more than 2 column lines"),
    # clues with commas and spaces, and colour letters, look like clues too
    (ROWS_2 + "1, 2\n" + COLS_2, 6, "more than 2 row lines"),
    (ROWS_2 + COLS_2 + "1a,2b\n", 9, "more than 2 column lines"),
    # a comment left over is ignored, the clue after it is not
    (ROWS_2 + "# note\n3\n" + COLS_2, 7, "more than 2 row lines"),
    # Simpson's layout (blank lines among clues, 'rows 2' as the height)
    ("columns 2\nrows 2\nrows\n1\n\n1\n\n1\ncolumns\n1\n1\n", 8, "more than 2 row lines"),
]


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize(("text", "line", "why"), EXTRA, ids=range(len(EXTRA)))
def test_extra_clue_lines_name_the_line(text: str, line: int, why: str, newline: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_puzzle(text.replace("\n", newline), "non", "x.non")
    assert (info.value.source, info.value.line, info.value.why) == ("x.non", line, why)
    assert str(info.value) == f"x.non:{line}: {why}"


def test_extra_line_in_a_nonpack_names_the_file_line() -> None:
    text = ROWS_2 + COLS_2 + "====\n" + ROWS_2 + "1\n" + COLS_2
    with pytest.raises(ParseError, match=r"^x\.nonpack:15: more than 2 row lines$"):
        list(parse_entries(text, "non", "x.nonpack"))


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize(("name", "text", "line", "why"), [
    ("rows.non", ROWS_2 + "2\n" + COLS_2, 6, "more than 2 row lines"),
    ("cols.non", HEART + "7\n7\n", 24, "more than 9 column lines"),
])
def test_cli_extra_lines_are_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             name: str, text: str, line: int, why: str,
                                             newline: str) -> None:
    path = tmp_path / name
    path.write_bytes(text.replace("\n", newline).encode())
    assert main(["nonogram", "solve", "--jobs", "1", "--ascii", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"gridsolve: error: {path}:{line}: {why}\n"


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_unknown_keys_comments_and_trailing_blank_lines_still_read(newline: str) -> None:
    text = ('catalogue "ours #1"\ntitle "Heart &amp; soul"\nby "us"\nauthor "us"\n'
            'copyright "&copy; us"\nlicense CC-BY-4.0\nmaxrule 2\n'
            + HEART.replace("columns", "# the columns\ncolumns")
            + "\n# a comment after the clues\n----\nsaved \"x\"\nextension 7\n\n\n\n")
    puzzle = parse_puzzle(text.replace("\n", newline), "non", "x.non")
    heart = read_puzzle(str(Path(__file__).resolve().parents[3] / "src" / "gridsolve"
                            / "examples" / "heart.txt"))
    assert (puzzle.rows, puzzle.cols, puzzle.title) == (heart.rows, heart.cols, "Heart & soul")


def test_exact_counts_with_blank_lines_and_a_goal_still_read() -> None:
    text = "width 2\nheight 2\n\nrows\n1\n\n1\n\n\ncolumns\n1\n1\n\n\ngoal \"1001\"\n\n\n"
    entry = next(parse_entries(text, "non", "x.non"))
    assert (entry.puzzle.rows, entry.goal) == (((1,), (1,)), ("#.", ".#"))
