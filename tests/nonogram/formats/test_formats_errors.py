"""Malformed input: one clear ParseError naming the line; the CLI prints one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridsolve.cli import error_line, main
from gridsolve.errors import InvalidPuzzle, ParseError
from gridsolve.nonogram.formats import (detect_format, iter_entries, parse_entries, read_entry,
                                        parse_puzzle, read_text)
from gridsolve.nonogram.model import Puzzle

NON_OK = "width 2\nheight 2\nrows\n1\n1\ncolumns\n2\n0\n"
TOURNAMENT_BODY = "\n".join(["1"] * 50)

# (format, text, line the error must name (None: no line), words the message must contain)
BAD: list[tuple[str, str, int | None, str]] = [
    ("text", "1\n--\n1 x\n", 3, "'x' is not a number"),
    ("text", "1\n--\n1\n--\n1\n", 4, "second separator"),
    ("text", "3\n--\n1\n", 1, "needs 3 cells"),
    ("text", "# only a comment\n", None, "empty file"),
    ("text", "1\n1\n", None, "no '--' line"),
    ("text", "1\n\n1\n\n1\n", 4, "more than one blank-line gap"),
    ("keen", "1\n\n1\n\n1\n", 4, "more than one blank-line gap"),
    ("keen", "1 2\n\n2\n-1\n", 4, "cannot be negative"),
    ("non", "width 2\nheight 2\nrows\n1\n1\ncolumns\n2\n", 6, "needs 2 lines"),
    ("non", "height 2\nrows\n1\n1\ncolumns\n1\n1\n", 5, "'columns' comes before 'width'"),
    ("non", "width x\nheight 2\n", 1, "width must be a whole number"),
    ("non", NON_OK.replace("rows\n1\n", "rows\n1q\n"), 4, "'1q'"),
    ("non", NON_OK.replace("rows\n1\n", "rows\n1a\n"), 4, "colour puzzles are not supported"),
    ("non", "color a #ff0000\n" + NON_OK, 1, "colour puzzles are not supported"),
    ("non", NON_OK + 'goal "10-0"\n', 9, "goal: unexpected character '-'"),
    ("non", NON_OK + 'goal "101"\n', 9, "goal has 3 cells"),
    ("non", NON_OK.replace("columns\n2\n0\n", "columns\n2\n1\n"), None, "row clues fill 2"),
    ("glpk", "data;\nparam m := 1;\nparam n := 1;\nparam row : 1 :=\n 1 1\n;\n", None,
     "missing 'param col'"),
    ("glpk", "data;\nparam m := 1;\nparam n := 1;\nparam row : 1 :=\n 1 x\n;\n"
     "param col : 1 :=\n 1 1\n;\nend;\n", 5, "block length"),
    ("glpk", "data;\nparam m := 1;\nparam n := 1;\nparam row : 1 :=\n 2 1\n;\n"
     "param col : 1 :=\n 1 1\n;\nend;\n", 5, "outside 1..1"),
    ("glpk", "data;\nparam m := 1\nparam n := 1;\n", 2, "expected 'param m := NUMBER;'"),
    ("glpk", "/* open comment\ndata;\n", 1, "unterminated"),
    ("tournament", "$1\n" + "\n".join(["1"] * 49) + "\n", 50, "49 clue lines: a puzzle needs an even"),
    ("tournament", "$1\n3\n", 2, "1 clue line: a puzzle needs an even number"),
    ("tournament", "$1\n" + TOURNAMENT_BODY.replace("1", "1\tz", 1) + "\n", 2, "'z'"),
    ("tournament", "junk\n$1\n" + TOURNAMENT_BODY + "\n", 1, "before the first '$n'"),
    ("tournament", "$1\n" + "\n".join(["26"] + ["1"] * 49) + "\n", 2, "needs 26 cells"),
    ("tournament", ("$1\n" + TOURNAMENT_BODY + "\n") * 2, 52, "a second puzzle $1"),
    ("puzzlekit", '{"data": {"a_1x1": {"problem": "1 1\\n1\\n"}}}', 1,
     "[a_1x1] problem: 1 clue lines, expected 1 columns + 1 rows"),
    ("puzzlekit", '{"data": {"a_1x1": {"problem": "1 1\\n1\\nq"}}}', 1,
     "[a_1x1] problem line 3: 'q'"),
    # the file's line of the field, the line inside its string in the message
    ("puzzlekit", '{"data": {\n "a": {"problem": "1 1\\n1\\n1",\n  "solution": "1 1\\n\\no"},\n'
     ' "b": 5}}', 3, "[a] solution line 3: goal row 1: unexpected character 'o'"),
    ("puzzlekit", '{"data": {\n "a": {"problem": "1 1\\n1\\n1"},\n "b": 5}}', 3,
     '[b]: each puzzle needs a "problem" string'),
    ("puzzlekit", '{"data": {\n "a": {"problem": "1 1\\n1\\n1",\n  "solution": "2 1\\nx"}}}', 3,
     "[a] solution line 1: the size '2 1' differs"),
    ("puzzlekit", '{"data": ', 1, "invalid JSON"),
    ("puzzlekit", '{"data": {"a": {"problem": "1 1\\n1\\n1", "solution": "1 1\\no"}}}', 1,
     "unexpected character 'o'"),
    ("json", '{"format": "gridsolve-nonogram", "version": 1,\n "rows": [[1]], "cols": [[1], ]}',
     2, "invalid JSON"),
    ("json", '{"format": "gridsolve-nonogram", "version": 2, "rows": [], "cols": []}', 1,
     'unsupported "version" 2'),
    ("json", '{"format": "gridsolve-nonogram", "version": 1, "rows": [[1]], "cols": [["1"]]}',
     1, "cols[0]"),
    ("json", '{"format": "gridsolve-nonogram", "version": 1, "rows": [[1]], "cols": [[1]],'
     ' "goal": ["##"]}', 1, "goal row 1 has 2 cells"),
    # the line of the value an error is about (json.loads keeps no positions)
    ("json", '{"format": "gridsolve-nonogram",\n "version": 1,\n "rows": [[1],\n  [1,\n'
     ' "x"]],\n "cols": [[1], [1]]}', 4, "rows[1]: a clue must be a list of integers"),
    ("json", '{"format": "gridsolve-nonogram", "version": 1,\n "rows": [[1], [1]],\n'
     ' "cols": [[1],\n [3]]}', 4, "column 2: clue 3 needs 3 cells"),
    ("json", '{"format": "gridsolve-nonogram", "version": 1, "palette": [\n'
     ' {"name": "w", "rgb": "#ffffff", "symbol": "."},\n'
     ' {"name": "r", "rgb": "#ff0000", "symbol": "r"},\n'
     ' {"name": "r", "rgb": "#00ff00", "symbol": "g"}],\n'
     ' "rows": [[[1, 1]]], "cols": [[[1, 1]]]}', 4, "two colours are named 'r'"),
    ("json", '{"format": "gridsolve-nonogram", "version": 1, "palette": [\n'
     ' {"name": "w", "rgb": "#ffffff", "symbol": "."},\n'
     ' {"name": "r", "rgb": "#ff0000", "symbol": "r"}],\n "rows": [[[1, 1]]],\n'
     ' "cols": [[[1, 1], [1, 1]]]}', 5, "column 1"),
    ("json", '{"format": "gridsolve-nonogram", "version": 1, "rows": [[1]], "cols": [[1]],'
     '\n "title": 5}', 2, '"title" must be a string'),
    ("json", '{"format": "gridsolve-nonogram", "version": 1, "rows": [[1], [1]],\n'
     ' "cols": [[1], [1]], "goal": ["#.",\n "#x"]}', 3, "goal row 2: unexpected character 'x'"),
    ("json", '{"format": "gridsolve-nonogram", "version": 1, "rows": [[1], [1]],\n'
     ' "cols": [[1], [1]],\n "goal": ["#."]}', 3, "goal has 1 rows, the puzzle has 2"),
    ("json", "[" * 100000 + "]" * 100000, None, "JSON"),
    ("webpbn", "<puzzleset><puzzle><clues type='rows'><line><count>1</count></line></clues>"
     "</puzzle></puzzleset>", None, 'expected one <clues type="columns">'),
    ("webpbn", "<puzzleset>\n<puzzle>\n<clues>\n</puzzle>", 4, "invalid XML"),
    ("webpbn", '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n]>\n<puzzle/>',
     2, "entity declarations is refused"),
    ("webpbn", "<puzzleset><puzzle><color name='white'/><color name='black'/>\n"
     "<clues type='rows'><line>\n<count color='red'>1</count></line></clues>"
     "</puzzle></puzzleset>", 3, "unknown colour 'red'"),
    ("mk", "2 1\n1\n#\n1\n", 2, "expected 2 row lines"),
    ("mk", "1 1\n1\n#\n1\n1\n", 5, "more than 1 column lines"),
    ("mk", "one two\n1\n#\n1\n", 1, "HEIGHT WIDTH"),
    ("g", "x\n:\n1\n:\n1 q\n", 5, "'q'"),
    ("g", "#d\n b:b blue\n:\n1b\n:\n1x\n", 6, "unknown colour 'x'"),
    ("g", "#t triddler\n:\n1\n:\n1\n", 1, "triddlers are not supported"),
    ("g", "x\n:\n1\n", None, "expected a ':' line"),
    ("cwd", "1\n1\n1\n1\n", 4, "expected a blank line"),
    ("cwd", "1\nx\n1\n\n1\n", 2, "width"),
    ("spoj", "1\n1 1\n1\n1 0\n", 3, "must end with 0"),
    ("spoj", "2\n1 1\n1 0\n1 0\n", None, "promises 2 puzzles"),
    ("pynogram", "[clues]\nrows = 1, 1\n", None, "no 'columns ='"),
    ("pynogram", "[clues]\nrows = 1\ncolumns = 1x\n", 3, "'1x'"),
    ("pynogram", "[colors]\nb = (blue) *\n[clues]\nrows = 1b\ncolumns = 1q\n", 5,
     "'1q': unknown colour 'q'"),
]


@pytest.mark.parametrize(("fmt", "text", "line", "words"), BAD)
def test_malformed_input(fmt: str, text: str, line: int | None, words: str) -> None:
    with pytest.raises(ParseError) as info:
        list(parse_entries(text, fmt, "bad.file"))
    assert words in str(info.value)
    assert info.value.line == line
    assert str(info.value).startswith("bad.file")
    assert "\n" not in str(info.value)


def test_unknown_format_is_named() -> None:
    with pytest.raises(ParseError, match="unknown puzzle format"):
        parse_puzzle("hello world\n", source="x.zzz")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("name", "text"), [
    ("bad.non", "width 2\nheight 2\nrows\n1\n"),
    ("bad.dat", "param m := 1;\n"),
    ("bad.txt", "$1\n1\n"),
    ("bad.json", '{"format": "gridsolve-nonogram", "version": 1}'),
    ("bad.xml", "<puzzleset><puzzle>"),
    ("bad.mk", "1 1\n#\n"),
    ("bad.g", ":\n:\n"),
])
def test_cli_bad_file_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    code, out, err = run(capsys, "nonogram", "solve", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"gridsolve: error: {path}")
    assert "Traceback" not in err


def test_size_limit_and_no_limits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "wide.non"
    path.write_text("width 1001\nheight 1000\nrows\n" + "0\n" * 1000 + "columns\n" + "0\n" * 1001)
    code, _, err = run(capsys, "nonogram", "convert", str(path), "-", "--to", "text")
    assert code == 2 and "over the 1000x1000 limit" in err and "--no-limits" in err
    code, out, _ = run(capsys, "nonogram", "convert", str(path), "-", "--to", "text",
                       "--no-limits")
    assert code == 0 and out.count("\n") == 1000 + 1 + 1001


def test_declared_size_is_checked_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.mk"
    path.write_text("99999999 99999999\n#\n")
    with pytest.raises(ParseError, match="far too large"):
        list(iter_entries(str(path), limits=False))
    with pytest.raises(ParseError, match="1000x1000") as caught:
        list(iter_entries(str(path)))
    # the library names its own parameter, never a CLI flag; the CLI words the advice
    assert caught.value.remedy == "limits" and "--" not in str(caught.value)


@pytest.mark.heavy
def test_a_side_longer_than_the_engines_line_is_refused(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """100,001x1 has fewer cells than the 1000x1000 guard, but a line longer than the engines
    take (100,000 cells): formats without a declared size refused it only in the engine,
    with a traceback. Every command reading it says one line, exit 2; the library's Puzzle
    refuses it too."""
    path = tmp_path / "wide.txt"
    path.write_text("1\n--\n1\n" + "0\n" * 100_000)
    for command in ("solve", "check", "explain", "rate", "hint"):
        code, out, err = run(capsys, "nonogram", command, str(path))
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert "100001x1 is far too large" in err and str(path) in err
    with pytest.raises(InvalidPuzzle, match="100001x1: a side has at most 100,000 cells"):
        Puzzle([[1]], [[1]] + [[]] * 100_000)


def test_library_errors_name_no_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    unknown, many = tmp_path / "x.unknown", tmp_path / "two.txt"
    unknown.write_text("@@@\n")
    many.write_text("$1\n" + "\n".join(["1"] * 50) + "\n$2\n" + "\n".join(["1"] * 50) + "\n")
    for path, remedy, flag in ((unknown, "format", "--format"), (many, "index", "--index N")):
        with pytest.raises(ParseError) as caught:
            read_entry(str(path))
        assert caught.value.remedy == remedy and "--" not in str(caught.value)
        code, _, err = run(capsys, "nonogram", "solve", str(path))
        assert code == 2 and flag in err and flag in error_line(caught.value)
        if remedy == "format":  # (several puzzles: solve counts them itself, cli/_input.py)
            assert str(caught.value) in err


def test_file_size_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.txt"
    path.write_text("1\n--\n1\n" + "#" * (10 * 1024 * 1024))
    code, _, err = run(capsys, "nonogram", "solve", str(path))
    assert code == 2 and "over 10 MB" in err
    code, out, _ = run(capsys, "nonogram", "solve", str(path), "--no-limits", "--json")
    assert code == 0 and json.loads(out)["status"] == "unique"


def test_solve_warns_about_a_wrong_goal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "goal.non"
    path.write_text(NON_OK + 'goal "0101"\n')
    code, out, err = run(capsys, "nonogram", "solve", str(path), "--ascii")
    assert code == 0 and out.startswith("#.\n#.\n")
    assert err == (f"gridsolve: warning: goal stored in {path} does not satisfy the clue of "
                   "column 1\n")


def test_solve_is_quiet_about_a_right_goal(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "goal.non"
    path.write_text(NON_OK + 'goal "1010"\n')
    code, _, err = run(capsys, "nonogram", "solve", str(path))
    assert (code, err) == (0, "")


def test_multi_puzzle_file_in_solve_and_convert(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "set.txt"
    path.write_text("$1\n" + "\n".join(["1"] * 50) + "\n$2\n" + "\n".join(["1"] * 50) + "\n")
    code, _, err = run(capsys, "nonogram", "solve", str(path))
    assert code == 2 and "holds 2 puzzles" in err and "--index N" in err
    code, out, _ = run(capsys, "nonogram", "convert", str(path), "-", "--to", "json",
                       "--index", "2")
    assert code == 0 and json.loads(out)["rows"] == [[1]] * 25
    code, _, err = run(capsys, "nonogram", "convert", str(path), "-", "--to", "json",
                       "--index", "3")
    assert code == 2 and "holds 2 puzzles" in err
    code, out, _ = run(capsys, "nonogram", "convert", str(path), "-", "--to", "tournament")
    assert code == 0 and out.count("$") == 2


def test_convert_picks_format_from_extension(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "p.non"
    src.write_text(NON_OK + 'goal "1010"\n')
    for name, fmt in [("p.xml", "webpbn"), ("p.json", "json"), ("p.dat", "glpk"),
                      ("p.mk", "mk"), ("p.cwd", "cwd"), ("p.g", "g")]:
        out = tmp_path / name
        assert run(capsys, "nonogram", "convert", str(src), str(out))[0] == 0
        (entry,) = iter_entries(str(out))
        assert entry.puzzle == Puzzle([[1], [1]], [[2], []])
        assert detect_format_name(out) == fmt
        if fmt in ("webpbn", "json"):
            assert entry.goal == ("#.", "#.")
    code, _, err = run(capsys, "nonogram", "convert", str(src), str(tmp_path / "p.zzz"))
    assert code == 2 and "give --to" in err
    code, _, err = run(capsys, "nonogram", "convert", str(src), str(src))
    assert code == 2 and "same file" in err


def detect_format_name(path: Path) -> str:
    return str(detect_format(read_text(str(path)), str(path)).NAME)


def test_convert_unknown_output_extension_names_the_fix(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from gridsolve.cli import main
    src = tmp_path / "p.txt"
    src.write_text("1\n--\n1\n")
    out = str(tmp_path / "out.zzz")
    assert main(["nonogram", "convert", str(src), out]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gridsolve: error: cannot tell the output format from {out!r}: give --to")
    assert err.count("\n") == 1


@pytest.mark.parametrize("text,fmt", [("", "non"), ("\n\n", "non"), ("0\n", "spoj"),
                                      ('{"data": {}}', "puzzlekit")])
@pytest.mark.parametrize("to", ["json", "tournament"])
def test_convert_of_a_file_without_a_puzzle_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, fmt: str,
        to: str) -> None:
    """As solve and show say it: one line naming the file, exit 2 (it was an IndexError's
    traceback, and --to tournament wrote nothing with exit 0)."""
    path = tmp_path / "empty.txt"
    path.write_text(text)
    code, out, err = run(capsys, "nonogram", "convert", "--format", fmt, str(path), "-",
                         "--to", to)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert f"{path}: no puzzle found" in err and "Traceback" not in err


def test_tournament_goals_are_read_as_asked_for(tmp_path: Path) -> None:
    """A question file's goals come from the sibling solution file, each read when its puzzle
    is: picking $1 of a file whose $2 goal is broken reads $1's goal alone (picking one
    puzzle of a thousand used to read a thousand goals); reading $2 names the broken line."""
    (tmp_path / "question").mkdir()
    (tmp_path / "solution").mkdir()
    question = tmp_path / "question" / "set.txt"
    question.write_text("$1\n1\n1\n1\n1\n$2\n1\n1\n1\n1\n")  # two 2x2 puzzles, a diagonal each
    (tmp_path / "solution" / "set.txt").write_text("$1\n1 0\n0 1\n$2\n1 0\n0 x\n")
    first = next(iter_entries(str(question)))
    assert first.label == "1" and first.goal == ("#.", ".#")
    with pytest.raises(ParseError) as caught:
        list(iter_entries(str(question)))
    assert caught.value.source == str(tmp_path / "solution" / "set.txt") and caught.value.line == 6
