"""Calendar puzzles (A-Puzzle-A-Day and kin): dates -> cells left open, year counts, ranking.

A calendar board labels its cells ``Jan``..``Dec``, ``1``..``31`` and optionally ``Mon``..``Sun``.
A date is solved by covering every other open cell; ``count_all`` counts every month/day
(/weekday) combination in one memoised search, with one "hole" monomino confined to the
month cells, one to the day cells (and one to the weekday cells).
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from statistics import mean

from gridsolve.errors import InvalidPuzzle
from gridsolve.numbers import is_number
from gridsolve.tiling import engine, presets
from gridsolve.tiling.engine import SearchLimits
from gridsolve.tiling.model import Board, Cell, Piece, check_area
from gridsolve.tiling.render import DrawnTiling

__all__ = ["MONTHS", "WEEKDAYS", "Edition", "CalendarDay", "edition", "is_valid", "parse_date",
           "today", "leave_open", "solutions", "count", "count_all", "year_rows", "rank",
           "averages", "all_days"]

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
DAYS_IN_MONTH = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_FULL_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december")
_FULL_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


@dataclass(frozen=True)
class Edition:
    """A calendar puzzle: a labelled board and its pieces (weekday cells optional)."""

    name: str
    board: Board
    pieces: tuple[Piece, ...]

    def __post_init__(self) -> None:
        labels = self.board.by_label
        missing = [m for m in MONTHS if m not in labels]
        missing += [str(d) for d in range(1, 32) if str(d) not in labels]
        if missing:
            raise InvalidPuzzle(f"a calendar board needs cells labelled Jan..Dec and 1..31; "
                                f"missing: {', '.join(missing[:6])}"
                                + (" ..." if len(missing) > 6 else ""))
        week = [w for w in WEEKDAYS if w in labels]
        if week and len(week) != 7:
            raise InvalidPuzzle("a calendar board has either all seven weekday cells "
                                "(Mon..Sun) or none")
        check_area(self.board, self.pieces, 3 if week else 2)

    @property
    def has_weekday(self) -> bool:
        """Does a date also leave its weekday open?"""
        return "Mon" in self.board.by_label

    def holes(self) -> tuple[tuple[Cell, ...], ...]:
        """The cells each hole may take: months, days (and weekdays)."""
        lab = self.board.by_label
        groups = [tuple(lab[m] for m in MONTHS), tuple(lab[str(d)] for d in range(1, 32))]
        if self.has_weekday:
            groups.append(tuple(lab[w] for w in WEEKDAYS))
        return tuple(groups)


@dataclass(frozen=True, order=True)
class CalendarDay:
    """A month (1-12), a day (1-31) and, for weekday editions, a weekday (0 = Monday)."""

    month: int
    day: int
    weekday: int | None = None

    def __str__(self) -> str:
        text = f"{MONTHS[self.month - 1]} {self.day}"
        return text if self.weekday is None else f"{WEEKDAYS[self.weekday]} {text}"

    @property
    def valid(self) -> bool:
        """Does this month and day occur in some year (Feb 29 does, Feb 30 does not)?"""
        return is_valid(self.month, self.day)


def is_valid(month: int, day: int) -> bool:
    """Is month/day a real date in a leap year?"""
    return 1 <= month <= 12 and 1 <= day <= DAYS_IN_MONTH[month - 1]


def edition(name: str = "original") -> Edition:
    """A shipped edition by name (see presets.EDITIONS: 'original', 'weekday', ...)."""
    return Edition(name, presets.board(name), presets.pieces(name))


def today(ed: Edition, now: _dt.date | None = None) -> CalendarDay:
    """Today's date (or ``now``) for an edition."""
    d = now or _dt.date.today()
    return CalendarDay(d.month, d.day, d.weekday() if ed.has_weekday else None)


def _month_of(word: str) -> int | None:
    w = word.lower().rstrip(".")
    for i, full in enumerate(_FULL_MONTHS):
        if len(w) >= 3 and full.startswith(w):
            return i + 1
    return None


def _weekday_of(word: str) -> int | None:
    w = word.lower().rstrip(".,")
    for i, full in enumerate(_FULL_WEEKDAYS):
        if len(w) >= 2 and full.startswith(w):
            return i
    return None


_HELP = "use YYYY-MM-DD, or a month name and a day such as 'Oct 6' (weekday edition: 'Mon Oct 6')"


def parse_date(text: str, ed: Edition) -> CalendarDay:
    """Read 'YYYY-MM-DD', 'today', 'Oct 6', '6 October', 'Mon Oct 6' (weekday optional)."""
    raw = text.strip()
    if raw.lower() == "today":
        return today(ed)
    if re.fullmatch(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}", raw):
        y, m, d = (int(x) for x in raw.split("-"))
        try:
            date = _dt.date(y, m, d)
        except ValueError as exc:
            raise InvalidPuzzle(f"{raw} is not a date: {exc}") from None
        return CalendarDay(m, d, date.weekday() if ed.has_weekday else None)
    words = [w for w in re.split(r"[\s,]+", raw) if w]
    month = day = weekday = None
    for w in words:
        if is_number(w) and len(w) <= 2 and day is None:
            day = int(w)
        elif month is None and _month_of(w) is not None:
            month = _month_of(w)
        elif weekday is None and _weekday_of(w) is not None:
            weekday = _weekday_of(w)
        else:
            raise InvalidPuzzle(f"cannot read the date {raw!r}: {_HELP}")
    if month is None or day is None:
        raise InvalidPuzzle(f"cannot read the date {raw!r}: {_HELP}")
    if not is_valid(month, day):
        raise InvalidPuzzle(f"{MONTHS[month - 1]} {day} is not a date: "
                            f"{MONTHS[month - 1]} has {DAYS_IN_MONTH[month - 1]} days at most")
    if ed.has_weekday and weekday is None:
        raise InvalidPuzzle(f"the {ed.name} edition also leaves the weekday open: give "
                            f"YYYY-MM-DD or a weekday, e.g. 'Mon {MONTHS[month - 1]} {day}'")
    return CalendarDay(month, day, weekday if ed.has_weekday else None)


def leave_open(ed: Edition, day: CalendarDay) -> tuple[Cell, ...]:
    """The cells a date leaves uncovered."""
    if not 1 <= day.month <= 12 or not 1 <= day.day <= 31:
        raise InvalidPuzzle(f"month {day.month} day {day.day} is not on the board")
    lab = ed.board.by_label
    cells = [lab[MONTHS[day.month - 1]], lab[str(day.day)]]
    if ed.has_weekday:
        if day.weekday is None or not 0 <= day.weekday <= 6:
            raise InvalidPuzzle(f"the {ed.name} edition needs a weekday for {day}")
        cells.append(lab[WEEKDAYS[day.weekday]])
    return tuple(cells)


def solutions(day: CalendarDay, ed: Edition | None = None,
              limits: SearchLimits = SearchLimits(), *, guided: bool = True
              ) -> Iterator[DrawnTiling]:
    """Every tiling for a date (each checked cell by cell); see engine.tilings for ``guided``.
    Each is a DrawnTiling: a tuple of placements that Jupyter shows as a picture."""
    ed = ed or edition()
    found = engine.tilings(ed.board, ed.pieces, leave_open(ed, day), limits, guided=guided)
    return (DrawnTiling(t, ed.board, ed.pieces, str(day)) for t in found)


def count(day: CalendarDay, ed: Edition | None = None,
          limits: SearchLimits = SearchLimits()) -> int:
    """The number of solutions for one date (memoised, nothing listed)."""
    ed = ed or edition()
    return engine.count(ed.board, ed.pieces, leave_open(ed, day), limits)


def all_days(ed: Edition) -> list[CalendarDay]:
    """Every month/day (/weekday) combination the board allows, valid or not."""
    weeks: list[int | None] = list(range(7)) if ed.has_weekday else [None]
    return [CalendarDay(m, d, w) for m in range(1, 13) for d in range(1, 32) for w in weeks]


def count_all(ed: Edition | str = "original", limits: SearchLimits = SearchLimits()
              ) -> dict[CalendarDay, int]:
    """Solutions of every month/day (/weekday) combination, by one split memoised count."""
    if isinstance(ed, str):
        ed = edition(ed)
    holes = ed.holes()
    split = engine.count_split(ed.board, ed.pieces, holes, (), limits)
    where = [{cell: i for i, cell in enumerate(group)} for group in holes]
    out: dict[CalendarDay, int] = {}
    for cells, n in split.items():
        m, d = where[0][cells[0]] + 1, where[1][cells[1]] + 1
        w = where[2][cells[2]] if len(cells) > 2 else None
        out[CalendarDay(m, d, w)] = n
    return dict(sorted(out.items()))


def year_rows(counts: Mapping[CalendarDay, int], all_pairs: bool = False) -> list[dict[str, object]]:
    """Counts as JSON-ready rows; impossible dates only with ``all_pairs`` (marked invalid)."""
    rows: list[dict[str, object]] = []
    for day, n in sorted(counts.items()):
        if not day.valid and not all_pairs:
            continue
        row: dict[str, object] = {"month": day.month, "day": day.day}
        if day.weekday is not None:
            row["weekday"] = day.weekday
        row["count"] = n
        if all_pairs:
            row["valid"] = day.valid
        rows.append(row)
    return rows


def rank(counts: Mapping[CalendarDay, int], top: int = 10
         ) -> tuple[list[tuple[CalendarDay, int]], list[tuple[CalendarDay, int]]]:
    """The hardest (fewest solutions) and easiest (most) valid dates, ties by date."""
    valid = [(day, n) for day, n in sorted(counts.items()) if day.valid]
    hardest = sorted(valid, key=lambda x: x[1])[:top]
    easiest = sorted(valid, key=lambda x: -x[1])[:top]
    return hardest, easiest


def averages(counts: Mapping[CalendarDay, int]) -> tuple[list[float], list[float]]:
    """Mean solutions per valid date for each month, and for each weekday (0.0 where none)."""
    valid = {day: n for day, n in counts.items() if day.valid}

    def avg(values: list[int]) -> float:
        return mean(values) if values else 0.0

    per_month = [avg([n for day, n in valid.items() if day.month == m]) for m in range(1, 13)]
    per_week: list[float] = []
    if any(day.weekday is not None for day in valid):
        per_week = [avg([n for day, n in valid.items() if day.weekday == w]) for w in range(7)]
    return per_month, per_week
