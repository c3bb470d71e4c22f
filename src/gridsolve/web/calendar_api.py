"""Calendar handlers of the JSON API: editions, the solutions of one date, the year's counts.

Year counts are computed once per edition (one memoised split count) and kept for the life
of the process; a date's solutions are listed by the guided engine, each checked by it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from gridsolve.errors import InvalidPuzzle, LimitReached
from gridsolve.numbers import is_number
from gridsolve.tiling import calendar as cal
from gridsolve.tiling import presets
from gridsolve.tiling.engine import SearchLimits
from gridsolve.tiling.model import Tiling
from gridsolve.web.limits import ApiError, WebLimits

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

__all__ = ["editions", "solutions", "year", "board_json", "year_json"]

Run = Callable[[Callable[[], Any]], Awaitable[Any]]

#: Most solutions one request lists (the weekday edition has dates with thousands).
MAX_LIST = 5000

_years: dict[str, dict[str, Any]] = {}
_years_lock = threading.Lock()


def _edition(request: Request) -> cal.Edition:
    name = request.query_params.get("edition", "original")
    if name not in presets.EDITIONS:
        raise ApiError(422, f"unknown edition {name!r}; choose one of {', '.join(presets.EDITIONS)}")
    return cal.edition(name)


def _limit_error(limits: WebLimits) -> ApiError:
    return ApiError(408, f"the search took longer than the {limits.budget:g} s budget; it was stopped")


def board_json(ed: cal.Edition) -> dict[str, Any]:
    """The board's geometry and labels, and the pieces with their colours."""
    from gridsolve.tiling.render import PALETTE, letters

    names = letters(ed.pieces)
    return {
        "board": {"width": ed.board.width, "height": ed.board.height,
                  "open": [list(c) for c in ed.board.open],
                  "labels": [[r, c, label] for (r, c), label in ed.board.labels]},
        "pieces": [{"name": p.name, "letter": names[i], "size": p.size,
                    "colour": PALETTE[i % len(PALETTE)]} for i, p in enumerate(ed.pieces)],
    }


def _tiling_json(tiling: Tiling) -> list[dict[str, Any]]:
    return [{"piece": pl.piece, "cells": [list(c) for c in pl.cells]} for pl in tiling]


async def editions(request: Request, limits: WebLimits, run: Run) -> Response:
    """The shipped editions with a one-line description each."""
    from gridsolve.web.responses import JSONResponse

    return JSONResponse({"editions": [{"name": k, "description": v}
                                      for k, v in presets.EDITIONS.items()]})


async def solutions(request: Request, limits: WebLimits, run: Run) -> Response:
    """The solutions of one date (up to ``limit``), its exact count and the board to draw."""
    from gridsolve.web.responses import JSONResponse

    ed = _edition(request)
    raw_limit = request.query_params.get("limit", "500")
    if not is_number(raw_limit) or len(raw_limit) > 9 or not 1 <= int(raw_limit) <= MAX_LIST:
        raise ApiError(422, f"limit must be a whole number from 1 to {MAX_LIST}")
    most = int(raw_limit)
    try:
        day = cal.parse_date(request.query_params.get("date", "today"), ed)
        cells = cal.leave_open(ed, day)
    except InvalidPuzzle as exc:
        raise ApiError(422, str(exc)) from None
    budget = SearchLimits(timeout=limits.budget)

    def work() -> tuple[list[Tiling], int]:
        found: list[Tiling] = []
        started = time.perf_counter()  # one budget for the listing and the count after it
        try:
            for tiling in cal.solutions(day, ed, budget):
                found.append(tiling)
                if len(found) >= most:
                    break
            total = (len(found) if len(found) < most
                     else cal.count(day, ed, budget.since(started)))
        except LimitReached:
            raise _limit_error(limits) from None
        return found, total

    found, total = await run(work)
    out = {"date": str(day), "month": day.month, "day": day.day, "weekday": day.weekday,
           "edition": ed.name, "count": total, "listed": len(found),
           "open": [list(c) for c in cells], **board_json(ed),
           "solutions": [_tiling_json(t) for t in found]}
    return JSONResponse(out)


def year_json(ed: cal.Edition, limits: WebLimits) -> dict[str, Any]:
    """Solutions per valid date (mean, min and max over weekdays) with heatmap colours."""
    from gridsolve.tiling.heatmap import colour_of

    with _years_lock:
        if ed.name in _years:
            return _years[ed.name]
    try:
        counts = cal.count_all(ed, SearchLimits(timeout=limits.budget))
    except LimitReached:
        raise _limit_error(limits) from None
    per_day: dict[tuple[int, int], list[int]] = {}
    for day, n in counts.items():
        if day.valid:
            per_day.setdefault((day.month, day.day), []).append(n)
    means = {key: sum(v) / len(v) for key, v in per_day.items()}
    lo, hi = min(means.values()), max(means.values())
    days = []
    for (m, d), values in sorted(per_day.items()):
        t = (means[(m, d)] - lo) / (hi - lo) if hi > lo else 0.5
        r, g, b = colour_of(t)
        days.append({"month": m, "day": d, "mean": round(means[(m, d)], 2), "min": min(values),
                     "max": max(values), "colour": f"#{r:02x}{g:02x}{b:02x}", "dark_text": t > 0.55})
    out = {"edition": ed.name, "lo": lo, "hi": hi, "weekday": ed.has_weekday, "days": days,
           "months": list(cal.MONTHS)}
    with _years_lock:
        _years[ed.name] = out
    return out


async def year(request: Request, limits: WebLimits, run: Run) -> Response:
    """Solution counts for every date of the year, coloured for a heatmap."""
    from gridsolve.web.responses import JSONResponse

    ed = _edition(request)
    return JSONResponse(await run(lambda: year_json(ed, limits)))
