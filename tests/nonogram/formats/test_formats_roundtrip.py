"""Write then read gives the same puzzle (and goal) for every writable format."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolve.nonogram.formats import (FORMATS, detect_format, parse_entries, parse_puzzle,
                                        write_puzzle)
from gridsolve.nonogram.formats import tournament
from gridsolve.nonogram.model import Grid, puzzle_from_grid

WRITABLE = sorted(name for name, mod in FORMATS.items() if hasattr(mod, "dump"))


@st.composite
def grids(draw: st.DrawFn, square: bool = False) -> Grid:
    height = draw(st.integers(1, 9))
    width = height if square else draw(st.integers(1, 9))
    row = st.text(alphabet="#.", min_size=width, max_size=width)
    return tuple(draw(st.lists(row, min_size=height, max_size=height)))


TITLES = st.none() | st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
                             min_size=1, max_size=20).filter(str.strip)


def test_the_issue_formats_are_writable() -> None:
    assert {"text", "non", "webpbn", "tournament", "json"} <= set(WRITABLE)


@pytest.mark.parametrize("fmt", WRITABLE)
@settings(max_examples=30, deadline=None)
@given(grid=grids(), title=TITLES)
def test_round_trip(fmt: str, grid: Grid, title: str | None) -> None:
    puzzle = puzzle_from_grid(grid, title=title)
    if fmt == tournament.NAME and puzzle.width != puzzle.height:
        return
    text = write_puzzle(puzzle, fmt, goal=grid)
    (entry,) = parse_entries(text, fmt, "x")
    assert (entry.puzzle.rows, entry.puzzle.cols) == (puzzle.rows, puzzle.cols)
    if getattr(FORMATS[fmt], "GOAL", False):
        assert entry.goal == grid
    if title and fmt in ("non", "json", "webpbn"):
        assert entry.puzzle.title == title.strip() or entry.puzzle.title == title


@pytest.mark.parametrize("fmt", WRITABLE)
@settings(max_examples=25, deadline=None)
@given(grid=grids(square=True))
def test_written_files_are_detected(fmt: str, grid: Grid) -> None:
    """What we write is recognised as what it is, with and without the file extension."""
    text = write_puzzle(puzzle_from_grid(grid), fmt)
    ext = FORMATS[fmt].EXTENSIONS[0]
    assert detect_format(text, "x" + ext).NAME == fmt
    assert parse_puzzle(text) == puzzle_from_grid(grid)


def test_keen_with_an_empty_first_row_is_not_spoj() -> None:
    """Hypothesis found it: Keen's text of this grid starts '0', '1 1', '0', '0' like a SPOJ
    file, whose first line counts its puzzles; a count of 0 is no SPOJ file."""
    grid = (".....", "..#.#", ".....", ".....", ".....")
    text = write_puzzle(puzzle_from_grid(grid), "keen")
    assert detect_format(text, "x.txt").NAME == "keen"
    assert detect_format(text).NAME == "keen"


@settings(max_examples=25, deadline=None)
@given(st.lists(grids(square=True), min_size=1, max_size=4))
def test_tournament_set_round_trip(grids_: list[Grid]) -> None:
    puzzles = [puzzle_from_grid(g) for g in grids_]
    text = tournament.dump_many(puzzles)
    entries = list(parse_entries(text, "tournament", "set.txt"))
    assert [e.puzzle for e in entries] == puzzles
    assert [e.label for e in entries] == [str(k) for k in range(1, len(puzzles) + 1)]


@pytest.mark.parametrize("text", [
    "\ufeff1\r\n--\r\n1\r\n",
    "1   \n-- rows above, columns below\n1 # a comment\n",
    "# a title\n\n1\n#\n1\n\n",
    "1\n\n1\n",
])
def test_liberal_text(text: str) -> None:
    assert parse_puzzle(text).rows == ((1,),)


@pytest.mark.parametrize("text", [
    "1 1\n# a note between rows\n3\n--\n2\n1\n2\n",
    "# title\n1 1\n3\n-- columns\n2\n# a note between columns\n1\n2\n",
    "1 1\n# a note\n3\n#\n2\n1\n# another\n2\n",
])
def test_comment_lines_between_clues_are_skipped(text: str) -> None:
    """A whole-line comment among the clue lines is not an empty clue."""
    puzzle = parse_puzzle(text)
    assert puzzle.rows == ((1, 1), (3,)) and puzzle.cols == ((2,), (1,), (2,))


def test_the_guides_json_example() -> None:
    """The JSON example of the nonogram guide (docs/nonograms.md, moved there from the README)
    reads as the puzzle it shows."""
    guide = (Path(__file__).resolve().parents[3] / "docs" / "nonograms.md").read_text(
        encoding="utf-8")
    block = guide.split('```json\n', 1)[1].split("```", 1)[0]
    (entry,) = parse_entries(block, "auto", "docs/nonograms.md")
    assert entry.goal == ("#.#", "###", "...")


@pytest.mark.parametrize("fmt", ["mk", "cwd", "g", "glpk", "non", "json", "webpbn", "keen"])
def test_content_wins_over_a_shared_extension(fmt: str) -> None:
    """A file in any format saved as .txt is still read as that format."""
    puzzle = puzzle_from_grid(("#.#", "###", "..."))
    text = write_puzzle(puzzle, fmt)
    assert detect_format(text, "puzzle.txt").NAME == fmt
    assert parse_puzzle(text, source="puzzle.txt") == puzzle


WEBPBN_STYLE = """<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">
<puzzleset>
<source>webpbn.com</source>
<puzzle type="grid" defaultcolor="black">
<title>Two by two</title>
<color name="white" char=".">FFFFFF</color>
<color name="black" char="X">000000</color>
<clues type="columns"><line><count>2</count></line><line><count>1</count></line></clues>
<clues type="rows"><line><count>2</count></line><line><count>1</count></line></clues>
<solution type="goal"><image>
| X X |
| [X] . |
</image></solution>
<solution type="saved"><image>|??|??|</image></solution>
</puzzle>
</puzzleset>
"""


def test_webpbn_house_style() -> None:
    (entry,) = parse_entries(WEBPBN_STYLE, source="two.xml")
    assert (entry.label, entry.puzzle.rows, entry.puzzle.cols) == (
        "Two by two", ((2,), (1,)), ((2,), (1,)))
    assert entry.goal == ("##", "#.")


def test_webpbn_background_in_defaultcolor() -> None:
    """Writers that name the background in defaultcolor colour every count explicitly."""
    text = (WEBPBN_STYLE.replace('defaultcolor="black"', 'defaultcolor="white"')
            .replace("<count>", '<count color="black">'))
    (entry,) = parse_entries(text, source="two.xml")
    assert entry.puzzle.rows == ((2,), (1,))


def test_non_goal_on_lines_and_bundles() -> None:
    one = "width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\ngoal\n11\n10\n"
    two = 'title "B"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\ngoal 1\n'
    entries = list(parse_entries(one + "====\n" + two, source="pack.nonpack"))
    assert [(e.label, e.goal) for e in entries] == [("pack", ("##", "#.")), ("B", ("#",))]


@pytest.mark.parametrize("fmt", WRITABLE)
def test_a_title_with_control_characters_writes_a_file_that_reads(fmt: str) -> None:
    """A title with an ESC, a NUL and a newline (a JSON file may hold them) is written so
    that the file reads back as the same puzzle: no format's writer may emit a file its own
    reader refuses (webpbn wrote them raw into its XML)."""
    puzzle = puzzle_from_grid(("#.", ".#"), title="a\x1b[31m\x00b\nc")
    text = write_puzzle(puzzle, fmt)
    back = parse_puzzle(text, fmt)
    assert (back.rows, back.cols) == (puzzle.rows, puzzle.cols)
