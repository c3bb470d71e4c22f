"""JSON positions (``nonogram hint --grid FILE``) go through the same guarded JSON reader as
puzzle files: nesting too deep for the parser and integers too long for int() are one line
naming the file, exit 2, never a RecursionError traceback or Python's 4300-digit text."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridsolve.cli import main
from gridsolve.errors import ParseError
from gridsolve.nonogram.formats.position import parse_position

HEART = Path(__file__).resolve().parents[3] / "src" / "gridsolve" / "examples" / "heart.txt"

# (name, JSON text, the error after "gridsolve: error: FILE")
BAD: list[tuple[str, str, str]] = [
    ("deep1000", "[" * 1000 + "]" * 1000, ": not valid JSON: nested too deeply"),
    ("deep100000", "[" * 100_000 + "]" * 100_000, ": not valid JSON: nested too deeply"),
    ("deep100000-open", "[" * 100_000, ": not valid JSON: nested too deeply"),
    ("deep-object", '{"grid": ' + "[" * 100_000 + "]" * 100_000 + "}",
     ": not valid JSON: nested too deeply"),
    ("bigint", "[[" + "1" * 5000 + "]]",
     ": not valid JSON at line 1: a number with more than 20 digits ('11111111111111111111...')"),
    ("bigint-line3", '[\n"#########",\n[' + "9" * 5000 + "]\n]",
     ": not valid JSON at line 3: a number with more than 20 digits ('99999999999999999999...')"),
]


@pytest.mark.parametrize(("name", "text", "why"), BAD, ids=[name for name, _, _ in BAD])
def test_cli_hint_grid_json_is_one_line_exit_2(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               name: str, text: str, why: str) -> None:
    path = tmp_path / f"{name}.json"
    path.write_text(text)
    assert main(["nonogram", "hint", str(HEART), "--grid", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"gridsolve: error: {path}{why}\n"
    assert "Traceback" not in err and "4300" not in err


@pytest.mark.parametrize(("name", "text", "why"), BAD, ids=[name for name, _, _ in BAD])
def test_parse_position_json_error_names_the_file(name: str, text: str, why: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_position(text, 9, 8, "pos.json")
    assert str(info.value) == f"pos.json{why}"


@pytest.mark.parametrize(("text", "why"), [
    # a cell nested deep enough to parse is named by its kind, not printed to its depth
    ("[[" + "[" * 500 + "]" * 500 + "]]", "row 1, cell 1: an array is not a cell"),
    ('[[{"a": 1}]]', "row 1, cell 1: an object is not a cell"),
    # a long bad cell is cut
    ('[["' + "q" * 10_000 + '"]]', "row 1, cell 1: 'qqqqqqqqqqqqqqqqqqqq...' is not a cell"),
    ("[[1" + "0" * 19 + "]]", "row 1, cell 1: 10000000000000000000 is not a cell"),
])
def test_bad_json_cells_are_short(text: str, why: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_position(text, 9, 8, "pos.json")
    assert str(info.value).startswith(f"pos.json:1: {why} ('#', '.', 'x', '?'")
    assert len(str(info.value)) < 200
