"""Positions (partly filled grids) read from text and JSON, with one-line errors."""

from __future__ import annotations

import pytest

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats.position import parse_position



def test_position_text_letters_spaces_and_comments() -> None:
    text = "; my position\n# . ?\n\nx#X\n"
    assert parse_position(text, 3, 2) == ("#.?", ".#.")


@pytest.mark.parametrize("text", ['["#.?", ".#x"]', '{"grid": ["#.?", ".#."]}',
                                  '[[1, 0, null], [0, 1, 0]]', '[["#", ".", -1], [0, 1, "x"]]'])
def test_position_json_forms(text: str) -> None:
    assert parse_position(text, 3, 2) == ("#.?", ".#.")


@pytest.mark.parametrize("text, where, why", [
    ("#.?\n#.a\n", ":2", "unexpected 'a'"),
    ("#.?\n#.\n", ":2", "row 2 has 2 cells but the puzzle is 3 wide"),
    ("#.?\n", "", "the position has 1 rows but the puzzle has 2"),
    ('[[1, 2, 0], "..."]', ":1", "row 1, cell 2: 2 is not a cell"),
    ('[\n"#.?",\n[1, 2, 0]\n]', ":3", "row 2, cell 2: 2 is not a cell"),
    ('{"grid":\n ["#.?",\n  "#."]}', ":3", "row 2 has 2 cells but the puzzle is 3 wide"),
    ('{"grid": 3}', ":1", "an array of rows"),
    ('{"grid": [],\n "grid":\n 3}', ":3", "an array of rows"),
    ("[1,", "", "not valid JSON"),
])
def test_position_errors_name_line_and_problem(text: str, where: str, why: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_position(text, 3, 2, "pos.txt")
    assert str(info.value).startswith(f"pos.txt{where}: ")
    assert why in str(info.value)
