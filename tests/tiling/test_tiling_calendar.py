"""Calendar puzzles: golden counts, dates, one search vs date-by-date, the full-year cross-check."""

from __future__ import annotations

import datetime as dt

import pytest

from gridsolve.errors import InvalidPuzzle
from gridsolve.tiling import calendar as cal
from gridsolve.tiling.calendar import CalendarDay as D
from gridsolve.tiling.model import Board, Cell, Placement, Tiling

GOLDEN = {D(10, 6): 7, D(4, 6): 8, D(7, 6): 12, D(10, 5): 13, D(5, 24): 14, D(1, 25): 216,
          D(1, 20): 195, D(8, 28): 189, D(1, 7): 188, D(1, 23): 188}


@pytest.fixture(scope="module")
def year() -> dict[D, int]:
    return cal.count_all("original")


def test_golden_counts(year: dict[D, int]) -> None:
    assert {day: year[day] for day in GOLDEN} == GOLDEN
    assert len(year) == 372
    assert sum(n for day, n in year.items() if day.valid) == 24405
    assert sum(day.valid for day in year) == 366


def test_rank_and_averages(year: dict[D, int]) -> None:
    hardest, easiest = cal.rank(year, 5)
    assert hardest == [(D(10, 6), 7), (D(4, 6), 8), (D(7, 6), 12), (D(10, 5), 13), (D(5, 24), 14)]
    assert easiest[:2] == [(D(1, 25), 216), (D(1, 20), 195)]
    per_month, per_week = cal.averages(year)
    assert per_week == [] and per_month[0] == pytest.approx(sum(year[D(1, d)] for d in range(1, 32)) / 31)


def independent_check(board: Board, tiling: Tiling, leave: tuple[Cell, ...]) -> bool:
    """Cell by cell, without the model: every open cell covered once, except the ones left."""
    seen: dict[Cell, int] = {}
    for pl in tiling:
        for cell in pl.cells:
            seen[cell] = seen.get(cell, 0) + 1
    return (all(seen.get(c, 0) == (0 if c in leave else 1) for c in board.open)
            and set(seen) <= set(board.open))


@pytest.mark.parametrize("day", sorted(GOLDEN))
def test_enumeration_matches_golden(day: D) -> None:
    ed = cal.edition("original")
    leave = cal.leave_open(ed, day)
    found = list(cal.solutions(day, ed))
    plain = list(cal.solutions(day, ed, guided=False))
    assert len(found) == GOLDEN[day] == cal.count(day, ed) == len(plain)
    assert set(found) == set(plain)
    assert len({frozenset(found_t) for found_t in found}) == len(found)
    assert all(independent_check(ed.board, t, leave) for t in found)


@pytest.mark.slow
def test_full_year_two_ways(year: dict[D, int]) -> None:
    """All 372 pairs: the one split search vs full enumeration, each tiling checked cell by cell."""
    ed = cal.edition("original")
    for day, n in year.items():
        leave = cal.leave_open(ed, day)
        listed = list(cal.solutions(day, ed, guided=False))   # not guided by the counter
        assert len(listed) == n, day
        assert all(independent_check(ed.board, t, leave) for t in listed), day


@pytest.mark.slow
def test_weekday_edition_split_vs_one_by_one() -> None:
    ed = cal.edition("weekday")
    counts = cal.count_all(ed)
    assert len(counts) == 2604
    for day in [D(1, 1, 0), D(2, 29, 3), D(10, 6, 6), D(12, 31, 2), D(7, 15, 4)]:
        assert counts[day] == cal.count(day, ed) == len(list(cal.solutions(day, ed, guided=False)))


def test_weekday_edition_one_date() -> None:
    ed = cal.edition("weekday")
    day = cal.parse_date("2025-11-22", ed)
    assert day == D(11, 22, 5)
    assert cal.leave_open(ed, day) == ((1, 4), (5, 0), (7, 5))
    n = cal.count(day, ed)
    first = next(iter(cal.solutions(day, ed)))
    assert n == 1860 and independent_check(ed.board, first, cal.leave_open(ed, day))


@pytest.mark.parametrize("text, expected", [
    ("2025-10-06", D(10, 6)), ("Oct 6", D(10, 6)), ("6 october", D(10, 6)),
    ("Feb 29", D(2, 29)), ("sept 3", D(9, 3)), ("Mon, Oct 6", D(10, 6)),
])
def test_parse_date(text: str, expected: D) -> None:
    assert cal.parse_date(text, cal.edition("original")) == expected


@pytest.mark.parametrize("text, message", [
    ("2025-02-30", "2025-02-30 is not a date: day is out of range for month"),
    ("Foo 3", "cannot read the date 'Foo 3'"),
    ("Feb 30", "Feb 30 is not a date: Feb has 29 days at most"),
    ("Apr 31", "Apr 31 is not a date"),
    ("Oct", "cannot read the date 'Oct'"),
])
def test_bad_dates(text: str, message: str) -> None:
    with pytest.raises(InvalidPuzzle) as err:
        cal.parse_date(text, cal.edition("original"))
    assert str(err.value).startswith(message)


def test_weekday_needed() -> None:
    ed = cal.edition("weekday")
    with pytest.raises(InvalidPuzzle, match="also leaves the weekday open"):
        cal.parse_date("Oct 6", ed)
    assert cal.parse_date("Mon Oct 6", ed) == D(10, 6, 0)
    assert cal.today(ed, dt.date(2024, 2, 29)) == D(2, 29, 3)


def test_year_rows() -> None:
    counts = {D(2, 29): 5, D(2, 30): 3}
    assert cal.year_rows(counts) == [{"month": 2, "day": 29, "count": 5}]
    assert cal.year_rows(counts, all_pairs=True) == [
        {"month": 2, "day": 29, "count": 5, "valid": True},
        {"month": 2, "day": 30, "count": 3, "valid": False}]


def test_edition_needs_labels() -> None:
    ed = cal.edition("original")
    with pytest.raises(InvalidPuzzle, match="missing: Jan"):
        cal.Edition("x", Board(1, 2, ((0, 0), (0, 1))), ed.pieces)


def test_placements_are_model_objects() -> None:
    t = next(iter(cal.solutions(D(10, 6))))
    assert all(isinstance(pl, Placement) for pl in t) and len(t) == 8


def test_year_rows_weekday() -> None:
    counts = {D(1, 1, 0): 7, D(2, 30, 6): 1}
    assert cal.year_rows(counts) == [{"month": 1, "day": 1, "weekday": 0, "count": 7}]
    assert cal.year_rows(counts, True)[1] == {"month": 2, "day": 30, "weekday": 6, "count": 1,
                                              "valid": False}
    per_month, per_week = cal.averages(counts)
    assert per_week[0] == 7
