"""Issue 21: board and piece files and calendar dates, given hostile text, read or raise one
GridsolveError of one line; nothing else escapes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridsolve.errors import GridsolveError
from gridsolve.tiling import calendar as cal
from gridsolve.tiling import presets
from gridsolve.tiling.formats import parse_board, parse_pieces
from tests.fuzz import FAST, SLOW, TOKEN, one_line, soup

#: Board and piece words, and the shipped files with spans replaced (see tests/fuzz.py).
TILING = st.sampled_from(["#", ".", "1", "0", "A:", "B x2:", "x", " x", "Jan", "31", "Mon",
                          ";", "\n", "\n\n", " ", "#.#", "##\n#."]) | TOKEN
FILES = [presets.board_source("original"), presets.pieces_source("original")]
DATES = st.lists(st.sampled_from(["Oct", "Mon", "6", "31", "2026", "-", "10", "06", " ", ",",
                                  "today", "Feb", "29", "٣", "²", "１", "9" * 5000, "2026-10-06"])
                 | TOKEN, max_size=6).map("".join)


@st.composite
def tiling_text(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.lists(TILING, max_size=60).map("".join))
    text = draw(st.sampled_from(FILES))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        text = text[:i] + draw(st.lists(TILING, max_size=3).map("".join)) + text[i + 2:]
    return text


def refuses_cleanly(read: object, *args: object) -> None:
    try:
        read(*args)  # type: ignore[operator]
    except GridsolveError as exc:
        assert one_line(str(exc)), repr(str(exc))


def check(text: str, date: str) -> None:
    refuses_cleanly(parse_board, text, "b.txt")
    refuses_cleanly(parse_pieces, text, "p.txt")
    refuses_cleanly(cal.parse_date, date, cal.edition("original"))
    refuses_cleanly(cal.parse_date, date, cal.edition("weekday"))


@FAST
@given(text=tiling_text() | soup(), date=DATES)
def test_tiling_readers_never_crash(text: str, date: str) -> None:
    check(text, date)


@pytest.mark.slow
@SLOW
@given(text=tiling_text() | soup(), date=DATES)
def test_tiling_readers_never_crash_long(text: str, date: str) -> None:
    check(text, date)
