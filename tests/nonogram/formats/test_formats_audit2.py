"""What a second fuzz audit of the readers found (hostile and odd input), one test each; each
failed on the code before its fix, but the blank lines' (a cost, not a wrong answer: the
test keeps the case in the suite)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gridsolve.cli import main
from gridsolve.errors import ParseError
from gridsolve.nonogram.formats import (detect_format, format_for_path, iter_entries,
                                        parse_puzzle, read_text, write_puzzle)
from gridsolve.nonogram.formats._common import logical_lines
from gridsolve.nonogram.model import Colour, ColourPuzzle, Puzzle
from gridsolve.tiling.formats import parse_board, parse_pieces, read_board

#: Row 1 one number, row 2 two, then empty rows: the start of a SPOJ file ("1" puzzle,
#: "H W", clue lines ending in 0).
SPOJ_LOOKALIKE = Puzzle([[1], [1, 1], [], [], [], []], [[2], [], [1]])


@pytest.mark.parametrize("fmt", ["text", "keen", "makhorin"])
def test_a_text_that_starts_like_spoj_is_read_as_written(fmt: str) -> None:
    text = write_puzzle(SPOJ_LOOKALIKE, fmt)
    assert detect_format(text, "x.txt").NAME != "spoj"
    assert parse_puzzle(text, "auto", "x.txt") == SPOJ_LOOKALIKE


def test_spoj_files_are_still_detected() -> None:
    text = "2\n1 1\n1 0\n1 0\n2 2\n2 0\n0\n1 0\n1 0\n"
    assert detect_format(text).NAME == "spoj"
    from gridsolve.nonogram.formats import spoj
    assert not spoj.detect("1\n1 1\n1 0\n1 0\nmore\n")
    assert not spoj.detect("1\n1 1\n1 0\n1 0\n1\n")        # a line after the last puzzle


def test_leading_blank_lines_are_read_in_linear_time() -> None:
    # 100,000 blank lines took the Keen splitter 1.2 s (list.pop(0) per line), 10 MB hours
    text = "\n" * 100_000 + "1\n\n1\n"
    assert parse_puzzle(text, "keen") == Puzzle([[1]], [[1]])


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_file_is_refused_at_the_size_limit(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ParseError, match="over 10 MB"):
        read_text("/dev/zero")
    with pytest.raises(ParseError, match="at most"):
        read_board("/dev/zero")
    assert main(["nonogram", "solve", "/dev/zero"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_goal_must_have_the_puzzles_shape(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match="second 'height'") as err:
        parse_puzzle('width 2\nheight 2\ngoal "0110"\nheight 3\nrows\n1\n1\n0\n'
                     "columns\n1\n1\n", "non", "x.non")
    assert err.value.line == 4
    (tmp_path / "question").mkdir()
    (tmp_path / "solution").mkdir()
    (tmp_path / "question" / "a.txt").write_text("$1\n1\n1\n1\n1\n")
    (tmp_path / "solution" / "a.txt").write_text("$1\n1 0 0\n0 1 0\n0 0 1\n")
    with pytest.raises(ParseError, match="stored solution is 3x3, the puzzle 2x2") as err:
        list(iter_entries(str(tmp_path / "question" / "a.txt")))
    assert err.value.source == str(tmp_path / "solution" / "a.txt")


def test_a_form_feed_is_no_line_break() -> None:
    assert logical_lines("1 1\f\n2\r\n3\r4\n") == ["1 1\f", "2", "3", "4"]
    assert parse_puzzle("1\n1 1\f\n--\n2\n0\n1\n", "text") == Puzzle([[1], [1, 1]],
                                                                     [[2], [], [1]])
    with pytest.raises(ParseError):
        parse_board("...\f...\n......\n")  # the \f is inside the first row, not a row break


def test_a_space_before_a_piece_row_is_refused_not_dropped() -> None:
    with pytest.raises(ParseError, match="unexpected character ' '"):
        parse_pieces("T:\n###\n #\n")              # was read as an L
    assert parse_pieces("  T:\n  ###\n  .#.\n")[0].rows() == ("###", ".#.")  # indented block
    with pytest.raises(ParseError, match="unexpected character ' '"):
        parse_board("...\n ..\n")
    assert parse_board("  ..\n  ..\n").open == ((0, 0), (0, 1), (1, 0), (1, 1))


def test_colour_names_read_back_from_every_colour_writer() -> None:
    with pytest.raises(Exception, match="no space at either end"):
        Colour(" pad ", (255, 0, 0), "r")
    with pytest.raises(Exception, match="printable"):
        Colour("a\x01", (255, 0, 0), "r")
    doc = ('{"format":"gridsolve-nonogram","version":1,"palette":[{"name":"white","rgb":'
           '"#ffffff","symbol":"."},{"name":" pad ","rgb":"#ff0000","symbol":"r"},{"name":"b",'
           '"rgb":"#0000ff","symbol":"b"}],"rows":[[[1,1],[1,2]]],"cols":[[[1,1]],[[1,2]]]}')
    puzzle = parse_puzzle(doc, "json")
    assert isinstance(puzzle, ColourPuzzle) and puzzle.palette[1].name == "pad"
    assert parse_puzzle(write_puzzle(puzzle, "webpbn"), "webpbn") == puzzle
    with pytest.raises(ParseError, match="x.json:1: colour name"):
        parse_puzzle(doc.replace(" pad ", "a\\u0001"), "json", "x.json")
    with pytest.raises(ParseError, match="x.json:1: a colour needs a name"):
        parse_puzzle(doc.replace('"white"', '""'), "json", "x.json")


def test_a_zero_among_colour_blocks_is_refused() -> None:
    text = "[colors]\nr = (red) %\n[clues]\nrows = 1 0 1r\ncolumns = 1, 0, 1r\n"
    with pytest.raises(ParseError, match="0 may only stand alone") as err:
        parse_puzzle(text, "pynogram", "x.toml")
    assert err.value.line == 4


def test_a_key_or_section_given_twice_is_refused() -> None:
    with pytest.raises(ParseError, match="'rows' is given twice") as err:
        parse_puzzle("[clues]\nrows = 1\ncolumns = 1, 0\nrows = 0\n", "pynogram", "x.toml")
    assert err.value.line == 4
    with pytest.raises(ParseError, match="a second \\[clues\\] section"):
        parse_puzzle("[clues]\nrows = 1\ncolumns = 1\n[clues]\nrows = 1\n", "pynogram")


def test_convert_to_txt_writes_our_text_format(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert format_for_path("out.txt") == "text"
    src = tmp_path / "a.non"
    src.write_text("width 3\nheight 2\nrows\n1\n3\ncolumns\n1\n2\n1\n")
    assert main(["nonogram", "convert", str(src), str(tmp_path / "out.txt")]) == 0
    assert parse_puzzle((tmp_path / "out.txt").read_text(), "text") == Puzzle(
        [[1], [3]], [[1], [2], [1]])
    assert main(["nonogram", "convert", "--to", "tournament", str(src),
                 str(tmp_path / "t.txt")]) == 2
    assert capsys.readouterr().err.startswith(f"gridsolve: error: {src}: the tournament format")
    colour = Path(__file__).resolve().parents[3] / "src" / "gridsolve" / "examples" / "mushroom.json"
    assert main(["nonogram", "convert", str(colour), str(tmp_path / "m.non")]) == 2
    assert capsys.readouterr().err == (f"gridsolve: error: {colour}: the non format holds "
                                       "black-and-white puzzles only (this puzzle has 4 "
                                       "colours)\n")


def test_an_error_quoting_a_huge_clue_stays_short(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    path.write_text("1 " * 100_000 + "\n--\n1\n")
    assert main(["nonogram", "solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err) < 300 and "(100000 blocks) needs 199999 cells" in err


def test_running_out_of_memory_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import gridsolve.cli.nonogram as cli_nonogram

    def exhausted(*_: object) -> int:
        raise MemoryError
    monkeypatch.setattr(cli_nonogram, "run_solve", exhausted)
    assert main(["nonogram", "solve", "x.txt"]) == 1
    assert capsys.readouterr().err == "gridsolve: error: out of memory\n"


def test_a_lone_surrogate_in_xml_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="x.xml: invalid XML"):
        parse_puzzle("<puzzleset><puzzle><title>\udcff</title></puzzle></puzzleset>", "auto",
                     "x.xml")


@pytest.mark.parametrize("title", ["$1", "[clues]", " [clues] ", ":rows", "#d", "plain"])
def test_a_g_file_reads_back_as_g_whatever_its_title(title: str) -> None:
    """A .g file saved without its extension is detected by content: a title such as '$1'
    (a tournament file's marker) or '[clues]' (a pynogram section) made it another format."""
    from gridsolve.nonogram.model import puzzle_from_grid

    puzzle = puzzle_from_grid(["#.", ".#", "##"], title=title)
    text = write_puzzle(puzzle, "g")
    assert detect_format(text).NAME == "g"
    assert parse_puzzle(text) == puzzle_from_grid(["#.", ".#", "##"])


def test_a_syro_file_saved_as_txt_reads_back() -> None:
    """.txt belongs to several formats; our text format's detector took JSolver's (syro)
    output too, then refused its clue lines' closing 0."""
    from gridsolve.nonogram.model import puzzle_from_grid

    puzzle = puzzle_from_grid(["#.#", ".#.", "##."])
    text = write_puzzle(puzzle, "syro")
    assert detect_format(text, "saved.txt").NAME == "syro"
    assert parse_puzzle(text, source="saved.txt") == puzzle
    assert detect_format(write_puzzle(puzzle, "text"), "saved.txt").NAME == "text"
