"""Fuzz audit: what the command line writes. A file it cannot write is one line naming it (as
``nonogram solve --png`` always said); an argument error is one line, no usage block; a
title read from a file reaches the terminal with its control characters escaped, and a .non
file with none of them raw."""

from __future__ import annotations

import argparse
import importlib.util
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import gridsolve.cli
from gridsolve.cli import main
from gridsolve.cli._args import OneLineErrors, positive_int, printable
from gridsolve.nonogram.formats import non, parse_entries, write_puzzle
from gridsolve.nonogram.model import puzzle_from_grid

HEART = Path(gridsolve.__file__).parent / "examples" / "heart.txt"
#: The audit's title: a newline, then an ANSI colour (ESC [ 3 1 m).
NASTY = "a\nb\x1b[31m"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def titled(tmp_path: Path, title: str) -> Path:
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"format": "gridsolve-nonogram", "version": 1, "rows": [[1]],
                                "cols": [[1]], "title": title}))
    return path


# -- files that cannot be written -----------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["nonogram", "convert", str(HEART), "{missing}/x.json"],
    ["nonogram", "convert", str(HEART), "{folder}", "--to", "non"],
    ["calendar", "heatmap", "{missing}/x.svg"],
    ["calendar", "solve", "Oct 6", "--svg", "{missing}/x.svg"],
    ["calendar", "design", "--heatmap", "{missing}/x.svg"],
    ["tiling", "solve", "6x10", "pentominoes", "--svg", "{missing}/x.svg"],
    ["nonogram", "generate", "--width", "5", "--height", "5", "--seed", "1",
     "--out", "{missing}/x.txt"],
])
def test_unwritable_output_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       argv: list[str]) -> None:
    argv = [a.format(missing=tmp_path / "missing", folder=tmp_path) for a in argv]
    target = next(a for a in argv if a.startswith(str(tmp_path)))
    why = "Is a directory" if target == str(tmp_path) else "No such file or directory"
    code, _, err = run(capsys, *argv)
    assert (code, err) == (2, f"gridsolve: error: cannot write {target}: {why}\n")


def test_unwritable_png_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    bad = str(tmp_path / "missing" / "x.png")
    code, _, err = run(capsys, "calendar", "solve", "Oct 6", "--png", bad)
    assert (code, err) == (2, f"gridsolve: error: cannot write {bad}: No such file or directory\n")


def test_convert_writes_nothing_it_cannot_encode(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    """A lone surrogate (a JSON title's "\\ud800") is one line, and no half-written file."""
    out = tmp_path / "out.json"
    code, _, err = run(capsys, "nonogram", "convert", str(titled(tmp_path, "a\ud800")), str(out))
    assert (code, err) == (2, f"gridsolve: error: cannot write {out}: it would hold \\ud800, "
                              "which UTF-8 cannot encode\n")
    assert not out.exists()
    code, out_text, err = run(capsys, "nonogram", "convert", str(titled(tmp_path, "a\ud800")),
                              "-", "--to", "non")  # .non writes it as a character reference
    assert (code, err) == (0, "") and 'title "a&#55296;"' in out_text


# -- argument errors ------------------------------------------------------------------------

def test_one_line_errors_print_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    parser = OneLineErrors(prog="gridsolve batch")
    parser.add_argument("--jobs", type=positive_int)
    with pytest.raises(SystemExit):
        parser.parse_args(["--jobs", "-1"])
    assert capsys.readouterr().err == ("gridsolve batch: error: argument --jobs: must be at "
                                       "least 1, got -1\n")
    with pytest.raises(SystemExit) as caught:
        parser.parse_args(["--help"])
    assert caught.value.code == 0 and capsys.readouterr().out.startswith("usage: gridsolve batch")


BAD_ARGUMENTS = [
    (["nonogram", "solve", str(HEART), "--timeout", "-1"],
     "gridsolve nonogram solve: error: argument --timeout: must be a positive number, got -1"),
    (["batch", str(HEART), "--jobs", "-1"],
     "gridsolve batch: error: argument --jobs: must be at least 1, got -1"),
    (["batch", str(HEART), "--max-nodes", "0"],
     "gridsolve batch: error: argument --max-nodes: must be at least 1, got 0"),
    (["calendar", "solve", "--timeout", "0"],
     "gridsolve calendar solve: error: argument --timeout: must be a positive number, got 0"),
    (["nonogram", "convert", str(HEART)],
     "gridsolve nonogram convert: error: the following arguments are required: OUT"),
]


def one_line_argument_errors(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, line in BAD_ARGUMENTS:
        code, out, err = run(capsys, *argv)
        assert (code, out, err) == (2, "", line + "\n")
    code, out, _ = run(capsys, "batch", "--help")
    assert code == 0 and out.startswith("usage: gridsolve batch")


def test_argument_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Every command's argument errors are one line (the CLI's parser class is
    ``_args.OneLineErrors``), and --help still shows the usage."""
    assert issubclass(gridsolve.cli._Parser, OneLineErrors)
    one_line_argument_errors(capsys)


# -- titles and other text read from files ---------------------------------------------------

def test_printable() -> None:
    assert printable(NASTY) == "a\\nb\\x1b[31m"
    assert printable("\t\r\x00\x7f\x85\u2028\u202e\ud800") == "\\t\\r\\x00\\x7f\\x85\\u2028\\u202e\\ud800"
    kept = "Ünïcödé ♥ 漢字 👨\u200d👩\u200d👧 back\\slash 'quotes'"
    assert printable(kept) == kept


def test_show_escapes_the_title(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "nonogram", "show", str(titled(tmp_path, NASTY)))
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "a\\nb\\x1b[31m: 1x1"
    assert "\x1b" not in out


def test_a_colour_name_with_control_characters_is_refused_escaped(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({
        "format": "gridsolve-nonogram", "version": 1, "rows": [[[1, 1]]], "cols": [[[1, 1]]],
        "palette": [{"name": "white", "rgb": "#ffffff", "symbol": "."},
                    {"name": "red\x1b[0m\nX", "rgb": "#ff0000", "symbol": "r"}]}))
    code, out, err = run(capsys, "nonogram", "show", str(path))
    # refused where it is read (no writer could write it back as it is), quoted escaped
    assert code == 2 and not out and err == (f"gridsolve: error: {path}:1: colour name "
                                             "'red\\x1b[0m\\nX': printable text, no space at "
                                             "either end\n")


def test_convert_to_non_keeps_the_title_on_its_line(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    out = tmp_path / "t.non"
    assert run(capsys, "nonogram", "convert", str(titled(tmp_path, NASTY)), str(out))[0] == 0
    text = out.read_text()
    assert text.splitlines()[0] == 'title "a b&#27;[31m"'
    assert not any(c < " " and c != "\n" for c in text)
    (entry,) = parse_entries(text, "non", "t.non")
    assert entry.puzzle.title == "a b[31m"  # HTML reads &#27; as nothing


@pytest.mark.parametrize("title", ["x\n====\nwidth 9", "x\r\nrows\n5", "a\x00b\x7f\x9b",
                                   "q\"<&>\u2028\u0085\x0c\x1c'", "\ud800", "tab\there"])
def test_non_titles_are_one_line(title: str) -> None:
    """No title can add a line, a key or a puzzle to a .non file, or stop it being written."""
    grid = ("#.", ".#")
    text = write_puzzle(puzzle_from_grid(grid, title=title), non.NAME, goal=grid)
    text.encode("utf-8")
    head, rest = text.split("\n", 1)
    assert head.startswith('title "') and head.endswith('"')
    assert not any(c < " " and c != "\t" for c in head)
    assert rest == write_puzzle(puzzle_from_grid(grid), non.NAME, goal=grid)
    (entry,) = parse_entries(text, "non", "x.non")
    assert entry.goal == grid


def test_argparse_namespace_untouched() -> None:
    """OneLineErrors changes errors only: a good command line parses as before."""
    parser = OneLineErrors(prog="p")
    parser.add_argument("--jobs", type=positive_int, default=3)
    assert parser.parse_args([]) == argparse.Namespace(jobs=3)


@pytest.mark.parametrize("title", [NASTY, "a\ud800\t\ufffe"])
def test_pictures_draw_any_title(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                 title: str) -> None:
    """An SVG stays well-formed XML (no ESC in it), and neither picture fails on a lone
    surrogate: the title is drawn on one line with U+FFFD for what cannot be drawn."""
    svg = tmp_path / "t.svg"
    argv = ["nonogram", "show", str(titled(tmp_path, title)), "--svg", str(svg)]
    if importlib.util.find_spec("PIL") is not None:
        argv += ["--png", str(tmp_path / "t.png")]
    code, _, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    drawn = {NASTY: "a b\ufffd[31m", "a\ud800\t\ufffe": "a\ufffd \ufffd"}[title]
    texts = [e.text for e in ET.parse(svg).getroot().iter("{http://www.w3.org/2000/svg}text")]
    assert texts[0] == drawn
