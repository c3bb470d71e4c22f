"""Request bodies in, JSON-ready results out: size-limited reading and the solve payload.

Steps go out compactly: ``cells`` lists the changed cell indices (row-major) and ``values``
is one character per cell ('#' filled, '.' empty, '?' undone), in the same order.

A colour puzzle goes out with its palette (index 0 the background; clue blocks are
``[length, colour index]`` and solutions rows of palette symbols). Only the black-and-white
engine traces its steps and only black-and-white puzzles are rated, so a colour solve has no
steps and ``rating`` null.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from gridsolve.errors import GridsolveError, ParseError
from gridsolve.nonogram.engine import Result, SearchLimits
from gridsolve.nonogram.model import AnyPuzzle, ColourPuzzle, palette_of
from gridsolve.numbers import is_number, load_json
from gridsolve.web.limits import ApiError, WebLimits

if TYPE_CHECKING:
    from starlette.requests import Request

    from gridsolve.nonogram.watch.trace import Step

__all__ = ["read_json", "body_text", "puzzle_of", "to_puzzle_json", "step_json", "solve_puzzle",
           "solve_payload"]


def _too_large(limits: WebLimits) -> ApiError:
    return ApiError(413, f"the request is larger than {limits.max_body // 1024} KB; "
                         "send a smaller puzzle")


async def read_json(request: Request, limits: WebLimits) -> dict[str, Any]:
    """The body as a JSON object, refused (413) as soon as it passes ``max_body`` bytes."""
    declared = request.headers.get("content-length", "")
    if is_number(declared) and (len(declared) > 18 or int(declared) > limits.max_body):
        raise _too_large(limits)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limits.max_body:
            raise _too_large(limits)
        chunks.append(chunk)
    try:
        body = load_json(b"".join(chunks) or b"{}", "the request body")
    except ParseError as exc:  # bad syntax or UTF-8, a huge number, nesting too deep
        raise ApiError(422, f"the request body is not JSON we read ({exc.why})") from None
    if not isinstance(body, dict):
        raise ApiError(422, "the request body must be a JSON object")
    return body


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
                                ("contradiction", step.contradiction, False)):
        if value != default:
            out[key] = value
    return out


def _check(result: Result, limits: WebLimits) -> Result:
    if result.status == "unknown":
        raise ApiError(408, f"the solve took longer than the {limits.budget:g} s budget "
                            f"({result.nodes} search nodes); it was stopped")
    return result


def solve_puzzle(puzzle: AnyPuzzle, limits: WebLimits) -> Result:
    """Solve (up to two solutions) with the native engine under the budget; 408 past it."""
    from gridsolve.nonogram.backends import analyse

    return _check(analyse(puzzle, 2, SearchLimits(timeout=limits.budget), method="native"), limits)


def solve_payload(puzzle: AnyPuzzle, limits: WebLimits, steps: bool) -> dict[str, Any]:
    """Solve, rate and (optionally) trace a puzzle; runs in a worker thread."""
    from gridsolve.nonogram.rate import rate
    from gridsolve.nonogram.watch.trace import trace_solve

    if isinstance(puzzle, ColourPuzzle):
        result = solve_puzzle(puzzle, limits)
        return {"puzzle": to_puzzle_json(puzzle), "status": result.status,
                "solutions": [list(g) for g in result.solutions], "nodes": result.nodes,
                "seconds": round(result.seconds, 4), "rating": None, "steps": [],
                "complete": True}
    started = time.perf_counter()
    budget = SearchLimits(timeout=limits.budget)
    trace = None
    if steps:
        result, trace = trace_solve(puzzle, 2, budget, max_steps=limits.max_steps)
    else:
        result = solve_puzzle(puzzle, limits)
    _check(result, limits)
    left = max(0.05, limits.budget - (time.perf_counter() - started))
    rating = rate(puzzle, SearchLimits(timeout=left))
    out: dict[str, Any] = {
        "puzzle": to_puzzle_json(puzzle), "status": result.status,
        "solutions": [list(g) for g in result.solutions], "nodes": result.nodes,
        "seconds": round(result.seconds, 4),
        "rating": {"level": rating.level, "score": rating.score, "unique": rating.unique_known,
                   "line_solves": rating.line_solves, "probes": rating.probes,
                   "nodes": rating.nodes, "max_depth": rating.max_depth,
                   "complete": rating.status != "unknown"},
        "steps": [], "complete": True,
    }
    if trace is not None:
        out["steps"] = [step_json(s) for s in trace.steps]
        out["complete"] = trace.complete
    return out


def puzzle_of(body: dict[str, Any], limits: WebLimits) -> tuple[Any, str]:
    """Parse the body's text (422 with the parser's one-line message) and check its size."""
    from gridsolve.nonogram.formats import FORMATS, detect_format

    text = body_text(body)
    fmt = body.get("format") or "auto"
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
