"""Request bodies in, JSON-ready results out: size-limited reading and the solve payload.

Steps go out compactly: ``cells`` lists the changed cell indices (row-major) and ``values``
is one character per cell ('#' filled, '.' empty, '?' undone), in the same order.

A colour puzzle goes out with its palette (index 0 the background; clue blocks are
``[length, colour index]`` and solutions rows of palette symbols); its steps' values are
palette symbols, and a guess that takes a colour away names it in ``excluded``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from gridsolve.errors import GridsolveError, ParseError
from gridsolve.nonogram.engine import Result, SearchLimits
from gridsolve.nonogram.model import AnyPuzzle, palette_of
from gridsolve.numbers import is_number, load_json
from gridsolve.web.limits import ApiError, WebLimits

if TYPE_CHECKING:
    from starlette.requests import Request

    from gridsolve.nonogram.watch.trace import Step

__all__ = ["read_json", "body_text", "puzzle_of", "to_puzzle_json", "step_json", "solve_puzzle",
           "solve_payload", "give_back_memory"]


def _too_large(limits: WebLimits) -> ApiError:
    return ApiError(413, f"the request is larger than {limits.max_body // 1024} KB; "
                         "send a smaller puzzle")


async def read_json(request: Request, limits: WebLimits) -> dict[str, Any]:
    """The body as a JSON object, refused (413) as soon as it passes ``max_body`` bytes, 408
    when it has not all come within ``body_timeout`` seconds, and checked against the route's
    declared schema (``web/schema.py``: 422 naming the field)."""
    import anyio

    from gridsolve.web.schema import BODIES, validate

    declared = request.headers.get("content-length", "")
    if is_number(declared) and (len(declared) > 18 or int(declared) > limits.max_body):
        raise _too_large(limits)
    chunks: list[bytes] = []
    size = 0
    try:
        with anyio.fail_after(limits.body_timeout):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limits.max_body:
                    raise _too_large(limits)
                chunks.append(chunk)
    except TimeoutError:
        raise ApiError(408, f"the request body did not arrive within {limits.body_timeout:g} s"
                       ) from None
    try:
        body = load_json(b"".join(chunks) or b"{}", "the request body")
    except ParseError as exc:  # bad syntax or UTF-8, a huge number, nesting too deep
        raise ApiError(422, f"the request body is not JSON we read ({exc.why})") from None
    if not isinstance(body, dict):
        raise ApiError(422, "the request body must be a JSON object")
    path = request.url.path
    return validate(path, body) if path in BODIES else body


def body_text(body: dict[str, Any]) -> str:
    """The puzzle text of a request (422 when missing or empty)."""
    text = body.get("text")
    if not isinstance(text, str) or not text.strip():
        raise ApiError(422, "paste a puzzle (the text field is empty)")
    odd = next((ch for ch in text if "\ud800" <= ch <= "\udfff"), None)
    if odd is not None:  # a "\ud800" escape in the request: no reader (expat, say) takes it
        raise ApiError(422, f"the text holds U+{ord(odd):04X}, a lone surrogate, which is not "
                            "a character")
    return text


def to_puzzle_json(puzzle: AnyPuzzle) -> dict[str, Any]:
    """The clues of a puzzle (a colour block's (length, index) goes out as a JSON array), and
    the palette of a colour one."""
    out: dict[str, Any] = {
        "width": puzzle.width, "height": puzzle.height, "title": puzzle.title,
        "rows": [list(c) for c in puzzle.rows], "cols": [list(c) for c in puzzle.cols]}
    palette = palette_of(puzzle)
    if palette is not None:
        out["palette"] = [{"name": c.name, "rgb": c.hex, "symbol": c.symbol} for c in palette]
    return out


def step_json(step: Step) -> dict[str, Any]:
    """One traced step, without its default fields."""
    out: dict[str, Any] = {"kind": step.kind, "cells": [c for c, _ in step.changes],
                           "values": "".join(v for _, v in step.changes)}
    for key, value, default in (("line", step.line, -1), ("cell", step.cell, -1),
                                ("value", step.value, ""), ("depth", step.depth, 0),
                                ("round", step.round, 0), ("probing", step.probing, False),
                                ("contradiction", step.contradiction, False),
                                ("excluded", step.excluded, "")):
        if value != default:
            out[key] = value
    return out


def solve_puzzle(puzzle: AnyPuzzle, limits: WebLimits) -> Result:
    """Solve (up to two solutions) with the native engine under the budget: a budget that
    runs out is an answer too (status "unknown", with the cells proven in ``partial``)."""
    from gridsolve.nonogram.backends import analyse

    return analyse(puzzle, 2, SearchLimits(timeout=limits.budget), method="native")


def _answer(puzzle: AnyPuzzle, result: Result) -> dict[str, Any]:
    """What every solve answers: the status, the solutions found and the cells proven."""
    return {"puzzle": to_puzzle_json(puzzle), "status": result.status,
            "solutions": [list(g) for g in result.solutions], "partial": list(result.partial),
            "nodes": result.nodes, "seconds": round(result.seconds, 4), "rating": None,
            "steps": [], "complete": True}


def solve_payload(puzzle: AnyPuzzle, limits: WebLimits, steps: bool) -> dict[str, Any]:
    """Solve, rate and (optionally) trace a puzzle; runs in a worker thread. When the budget
    runs out the answer is status "unknown" with the cells proven so far, no rating and no
    steps (a 408 made browsers send the request again: issue 54)."""
    from gridsolve.nonogram.rate import rate
    from gridsolve.nonogram.watch.trace import trace_solve

    started = time.perf_counter()
    budget = SearchLimits(timeout=limits.budget)
    trace = None
    if steps:
        result, trace = trace_solve(puzzle, 2, budget, max_steps=limits.max_steps,
                                    max_bytes=limits.max_step_bytes)
    else:
        result = solve_puzzle(puzzle, limits)
    out = _answer(puzzle, result)
    if result.status == "unknown":
        return out
    left = max(0.05, limits.budget - (time.perf_counter() - started))
    rating = rate(puzzle, SearchLimits(timeout=left))
    out["rating"] = {"level": rating.level, "score": rating.score, "unique": rating.unique_known,
                     "line_solves": rating.line_solves, "probes": rating.probes,
                     "nodes": rating.nodes, "max_depth": rating.max_depth,
                     "complete": rating.status != "unknown"}
    if trace is not None:
        out["steps"] = [step_json(s) for s in trace.steps]
        out["complete"] = trace.complete
    return out


def give_back_memory() -> None:
    """Hand freed heap memory back to the system (glibc keeps it otherwise: a request's steps
    left the server holding hundreds of MB, issue 53); nothing elsewhere."""
    import ctypes
    import ctypes.util
    import sys

    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        pass


def puzzle_of(body: dict[str, Any], limits: WebLimits) -> tuple[Any, str]:
    """Parse the body's text (422 with the parser's one-line message) and check its size."""
    from gridsolve.nonogram.formats import FORMATS, detect_format

    text = body_text(body)
    fmt = body.get("format", "auto")
    if not isinstance(fmt, str) or fmt != "auto" and fmt not in FORMATS:
        raise ApiError(422, f"unknown format {fmt!r}; choose one of auto, {', '.join(FORMATS)}")
    try:
        mod = detect_format(text) if fmt == "auto" else FORMATS[fmt]
        puzzle = mod.parse(text, None, True)
    except GridsolveError as exc:  # unreadable or invalid
        raise ApiError(422, str(exc)) from None
    if puzzle.width > limits.max_side or puzzle.height > limits.max_side:
        raise ApiError(422, f"the puzzle is {puzzle.size}; this server solves puzzles up to "
                            f"{limits.max_side}x{limits.max_side}")
    return puzzle, str(mod.NAME)
