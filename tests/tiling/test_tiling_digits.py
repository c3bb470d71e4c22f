"""Issue 21: tiling files and calendar dates take ASCII digits only ('Oct ²' was a traceback,
'Oct ٣' read as October 3)."""

from __future__ import annotations

import pytest

from gridsolve.cli import main
from gridsolve.errors import InvalidPuzzle, ParseError
from gridsolve.tiling import calendar as cal
from gridsolve.tiling.formats import parse_pieces

BAD = ["²", "１", "١", "1" * 5000]


@pytest.mark.parametrize("token", BAD)
def test_piece_copies(token: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_pieces(f"A:\n#\n\nB x{token}:\n##\n", "p.txt")
    assert err.value.line == 4 and "\n" not in str(err.value)


@pytest.mark.parametrize("text", ["Oct ²", "Oct １", "Oct ١٣", "٢٠٢٦-10-06", "2026-1٠-06",
                                  "Oct " + "1" * 5000, "Oct 0006"])
def test_dates(text: str) -> None:
    ed = cal.edition("original")
    with pytest.raises(InvalidPuzzle) as err:
        cal.parse_date(text, ed)
    assert "\n" not in str(err.value)
    assert cal.parse_date("Oct 06", ed) == cal.CalendarDay(10, 6, None)


@pytest.mark.parametrize("token", BAD)
def test_cli_date(token: str, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["calendar", "solve", f"Oct {token}"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("gridsolve: error: ")
