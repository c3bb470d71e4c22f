"""A calendar puzzle designer's questions: is every date solvable with this piece set, how
evenly hard are the dates, and which one-piece swap from a pool makes the set more even?

Every answer comes from ``count_all`` (every date counted exactly in one memoised search), so
a report costs one count and a search over a pool costs one count per candidate set: each
shape is tried once per piece it may replace (up to the turns and mirror images that piece
is allowed: a pool of 10,000 copies of the pentominoes is twelve shapes), and the whole
search stops at one deadline with the sets it has counted.
Evenness is the coefficient of variation of the counts over the real dates (standard
deviation / mean): 0 when every date has as many solutions as every other.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from statistics import median, pstdev

from gridsolve.errors import LimitReached
from gridsolve.tiling import calendar as cal
from gridsolve.tiling.calendar import MONTHS, CalendarDay, Edition
from gridsolve.tiling.engine import SearchLimits
from gridsolve.tiling.model import Piece, Shape, orientations

__all__ = ["Report", "Swap", "Searched", "report", "evenness", "swaps", "search",
           "search_within", "distinct_shapes", "text_heatmap"]


@dataclass(frozen=True)
class Report:
    """What a designer wants to know about one piece set on one board."""

    counts: dict[CalendarDay, int]
    unsolvable: tuple[CalendarDay, ...]
    fewest: int
    median: float
    most: int
    hardest: tuple[tuple[CalendarDay, int], ...]
    easiest: tuple[tuple[CalendarDay, int], ...]
    evenness: float

    @property
    def every_date(self) -> bool:
        """Does every real date have a solution?"""
        return not self.unsolvable


@dataclass(frozen=True)
class Swap:
    """One piece of the set replaced by a candidate from the pool."""

    removed: str
    added: Piece


def evenness(counts: Mapping[CalendarDay, int]) -> float:
    """Coefficient of variation of the counts over the real dates (0 = perfectly even)."""
    values = [n for day, n in counts.items() if day.valid]
    mean = sum(values) / len(values)
    return pstdev(values) / mean if mean else float("inf")


def report(ed: Edition, top: int = 5, limits: SearchLimits = SearchLimits()) -> Report:
    """Count every date of the edition and summarise."""
    counts = cal.count_all(ed, limits)
    values = [n for day, n in counts.items() if day.valid]
    hardest, easiest = cal.rank(counts, top)
    return Report(counts, tuple(day for day, n in sorted(counts.items()) if day.valid and not n),
                  min(values), median(values), max(values), tuple(hardest), tuple(easiest),
                  evenness(counts))


def _canonical(cells: Shape, rotate: bool, flip: bool,
               cache: dict[tuple[Shape, bool, bool], Shape]) -> Shape:
    """The least of a shape's images under the moves given: equal for shapes that can be
    laid as each other."""
    key = (cells, rotate, flip)
    if key not in cache:
        cache[key] = min(orientations(cells, rotate, flip))
    return cache[key]


def distinct_shapes(pool: Sequence[Piece]) -> int:
    """How many shapes the pool holds up to turns and mirror images."""
    cache: dict[tuple[Shape, bool, bool], Shape] = {}
    return len({_canonical(p.cells, True, True, cache) for p in pool})


def swaps(ed: Edition, pool: Sequence[Piece]) -> Iterator[tuple[Swap, Edition]]:
    """Every edition made by replacing one piece by a pool piece of the same size that no
    piece already in the set can be laid as. The new piece moves as the one it replaces
    (a set of one-sided pieces stays one-sided) and comes in as many copies. A shape comes
    once per replaced piece, as its first pool piece: another that can be laid as it (turned
    or mirrored, as the replaced piece may be) is the same set under another name."""
    names = {p.name for p in ed.pieces}
    cache: dict[tuple[Shape, bool, bool], Shape] = {}
    firsts: dict[Shape, Piece] = {}  # the first pool piece of each exact shape, in order
    for cand in pool:
        firsts.setdefault(cand.cells, cand)
    for i, old in enumerate(ed.pieces):
        tried: set[Shape] = set()
        for cand in firsts.values():
            if cand.size != old.size:
                continue
            shape = _canonical(cand.cells, old.rotate, old.flip, cache)
            if shape in tried:
                continue
            tried.add(shape)
            new = dataclasses.replace(cand, copies=old.copies, rotate=old.rotate, flip=old.flip)
            laid = set(new.orientations())
            if any(laid.intersection(p.orientations()) for p in ed.pieces):
                continue
            name = cand.name if cand.name not in names - {old.name} else f"{cand.name}_new"
            new = dataclasses.replace(new, name=name)
            pieces = ed.pieces[:i] + (new,) + ed.pieces[i + 1:]
            yield Swap(old.name, new), Edition(f"{ed.name}+{name}-{old.name}", ed.board, pieces)


@dataclass(frozen=True)
class Searched:
    """What a search over swaps found: the sets that solve every date (most even first), how
    many sets it counted of how many, and whether it counted them all (False: the deadline)."""

    found: tuple[tuple[Swap, Report], ...]
    tried: int
    total: int
    complete: bool


def search_within(ed: Edition, pool: Sequence[Piece], limits: SearchLimits = SearchLimits(),
                  on_set: Callable[[int, int], None] | None = None) -> Searched:
    """``search`` under one deadline for the whole search (``limits.timeout`` from now): at
    the deadline it stops with the sets counted so far. ``on_set(done, total)`` is called
    before the first set and after each (progress)."""
    started = time.perf_counter()
    candidates = list(swaps(ed, pool))
    found: list[tuple[Swap, Report]] = []
    tried, complete = 0, True
    for swap, new in candidates:
        if on_set is not None:
            on_set(tried, len(candidates))
        left = limits.since(started)
        if left.timeout is not None and left.timeout <= 0:
            complete = False
            break
        try:
            rep = report(new, 3, left)
        except LimitReached:
            if limits.since(started).timeout != 0:
                raise  # a state or memory budget, not the clock
            complete = False
            break
        tried += 1
        if rep.every_date:
            found.append((swap, rep))
    if on_set is not None:
        on_set(tried, len(candidates))
    found.sort(key=lambda x: (x[1].evenness, x[0].removed, x[0].added.name))
    return Searched(tuple(found), tried, len(candidates), complete)


def search(ed: Edition, pool: Sequence[Piece], limits: SearchLimits = SearchLimits()
           ) -> list[tuple[Swap, Report]]:
    """The one-piece swaps whose every date is solvable, most even first (``search_within``
    with the whole search under ``limits.timeout``: what it counted before then)."""
    return list(search_within(ed, pool, limits).found)


#: Shades from few solutions to many.
SHADES = ".:-=+*#%@"


def text_heatmap(counts: Mapping[CalendarDay, int]) -> list[str]:
    """One line per month, one character per day: '0' no solution, shades from few to many
    (the mean over weekdays on weekday editions), blank where the date does not exist."""
    per_day: dict[tuple[int, int], float] = {}
    for day, n in counts.items():
        if day.valid:
            per_day.setdefault((day.month, day.day), 0.0)
            per_day[(day.month, day.day)] += n
    weeks = max(1, len({day.weekday for day in counts}))
    per_day = {k: v / weeks for k, v in per_day.items()}
    lo, hi = min(per_day.values()), max(per_day.values())
    lines = ["     " + "".join(str(d % 10) for d in range(1, 32))]
    for m in range(1, 13):
        row = []
        for d in range(1, 32):
            v = per_day.get((m, d))
            if v is None:
                row.append(" ")
            elif v == 0:
                row.append("0")
            else:
                t = (v - lo) / (hi - lo) if hi > lo else 0.5
                row.append(SHADES[min(len(SHADES) - 1, int(t * len(SHADES)))])
        lines.append(f"{MONTHS[m - 1]:<5}" + "".join(row).rstrip())
    return lines
