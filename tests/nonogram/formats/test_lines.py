"""Lines read one at a time are the lines read all at once (detection reads no further than
it needs: issue 56)."""

from __future__ import annotations

import pytest

from gridsolve.nonogram.formats._common import iter_logical_lines, logical_lines
from gridsolve.numbers import text_lines


@pytest.mark.parametrize("text", [
    "", "\n", "\n\n", "a", "a\n", "a\nb", "a\nb\n", "a\r\nb\r\n", "a\rb\r", "a\r\n\r\nb",
    "\ufeffa\nb", "a\fb\n\vc\u2028d\n", "a\r\r\nb", " \t \n", "$1\n1\t2\n\n3\n",
])
def test_one_at_a_time_as_all_at_once(text: str) -> None:
    assert list(iter_logical_lines(text)) == logical_lines(text)
    assert logical_lines(text) == text_lines(text.lstrip("\ufeff"))  # its CR-free shortcut


def test_a_detector_reads_only_the_lines_it_needs() -> None:
    from gridsolve.nonogram.formats import picross, pynogram
    big = "$1\n" + "1\t2\n" * 200_000
    lines = iter_logical_lines(big)
    assert next(lines) == "$1" and next(lines) == "1\t2"
    assert not picross.detect(big) and not pynogram.detect(big)
    assert picross.detect("# c\nGRID 1 1\nROWS\n[1]\nCOLUMNS\n[1]\n")
    assert pynogram.detect("[clues]\nrows = 1\ncolumns = 1\n")
