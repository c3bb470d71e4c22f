"""Lines of clue numbers (tournament files) read as int() reads them, at any spelling."""

from __future__ import annotations

import pytest

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import MAX_DIGITS, parse_number_lines


def test_number_lines_read_by_look_up_as_int_reads_them() -> None:
    """parse_number_lines reads numbers under 100 by a look-up (start-up, issue 56): every
    other spelling goes the int() way, and a number too long is still refused."""
    blocks = [
        ["1\t2\t3", "", "25", "0", "99"],      # the look-up
        ["1 2,3", ",4,", "5\t\t6 "],           # commas and runs of separators
        ["100 7", "1"],                        # past the table: int()
        ["07 1", "2"],                         # a leading zero: int()
        ["9" * MAX_DIGITS, "3"],               # the longest number taken
    ]
    for lines in blocks:
        want = [[int(t) for t in s.replace(",", " ").split()] for s in lines]
        got = parse_number_lines(lines, "x", 1)
        assert got == want and all(type(n) is int for row in got for n in row), lines
    with pytest.raises(ParseError, match="x:2"):
        parse_number_lines(["1", "9" * (MAX_DIGITS + 1)], "x", 1)
