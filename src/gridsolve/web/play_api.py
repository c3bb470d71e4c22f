"""The JSON API of play mode: the next step from a position, which cells are wrong, and the
example the page opens with.

Both take the puzzle text (as ``/api/nonogram/solve`` does) and the position as an array of
row strings ('#' filled, '.' or 'x' empty, '?' unknown; in a colour puzzle its palette's
symbols, '.' or 'x' the background, and '?'). Cells go out as ``{row, col}`` (from 0), a
cell's value as a symbol of the same kind. They run in a worker thread under the server's
budget, like every solve.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from gridsolve.web.limits import ApiError, WebLimits
from gridsolve.web.payloads import puzzle_of, read_json

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response


__all__ = ["ROUTES", "ENDPOINTS"]

Run = Callable[[Callable[[], Any]], Awaitable[Any]]

ENDPOINTS: list[dict[str, Any]] = [
    {"method": "GET", "path": "/api/nonogram/example",
     "returns": "{name, text, puzzle}: the small example the page opens with"},
    {"method": "POST", "path": "/api/nonogram/hint",
     "body": {"text": "puzzle text", "format": "auto",
              "grid": "[row strings of '#', '.', 'x', '?' (colour: palette symbols, 'x', "
                      "'?')] or null for the empty board"},
     "returns": "{kind: line|whole-line|contradiction|guess|solved|mistake|no-solution, "
                "reason, cells: [{row, col, value}], line, clue, probe, wrong: [{row, col}]}"},
    {"method": "POST", "path": "/api/nonogram/check",
     "body": {"text": "puzzle text", "format": "auto", "grid": "[row strings]"},
     "returns": "{kind: ok|solved|mistake|no-solution, reason, wrong: [{row, col}], line}"},
]


async def _position(request: Request, limits: WebLimits, run: Run) -> tuple[Any, Any]:
    """The puzzle and the position of a request (422 with one line); the text is read in a
    worker, as solves are (a 1 MB text takes seconds)."""
    from gridsolve.nonogram.model import palette_of

    body = await read_json(request, limits)
    puzzle, _ = await run(lambda: puzzle_of(body, limits))
    grid = body.get("grid")
    if grid is not None and (not isinstance(grid, list)
                             or not all(isinstance(r, str) for r in grid)):
        raise ApiError(422, "grid must be an array of row strings")
    palette = palette_of(puzzle)
    symbols = "#." if palette is None else "".join(c.symbol for c in palette)
    if grid is not None and (len(grid) != puzzle.height
                             or any(len(r) != puzzle.width for r in grid)
                             or set("".join(grid)) - set(symbols + "xX?")):
        shown = [f"'{s}'" for s in dict.fromkeys(symbols + "x?")]
        cells = f"{', '.join(shown[:-1])} or {shown[-1]}"
        raise ApiError(422, f"grid must be {puzzle.height} rows of {puzzle.width} cells, "
                            f"each {cells}")
    return puzzle, grid


async def hint(request: Request, limits: WebLimits, run: Run) -> Response:
    """The next step from the position, with its reason."""
    from gridsolve.web.responses import JSONResponse

    from gridsolve.nonogram.engine import SearchLimits
    from gridsolve.nonogram.hints import hint as next_step

    puzzle, grid = await _position(request, limits, run)
    step = await run(lambda: next_step(puzzle, grid, limits=SearchLimits(timeout=limits.budget)))
    return JSONResponse(step.as_json(puzzle.width))


async def check(request: Request, limits: WebLimits, run: Run) -> Response:
    """Which set cells are wrong (against the unique solution), or that all is well so far."""
    from gridsolve.web.responses import JSONResponse

    from gridsolve.nonogram.engine import SearchLimits
    from gridsolve.nonogram.hints import check_position

    puzzle, grid = await _position(request, limits, run)
    found = await run(lambda: check_position(puzzle, grid,
                                             limits=SearchLimits(timeout=limits.budget)))
    if found is None:
        return JSONResponse({"kind": "ok", "reason": "no mistakes so far", "wrong": [],
                             "line": -1})
    out = found.as_json(puzzle.width)
    return JSONResponse({k: out[k] for k in ("kind", "reason", "wrong", "line")})


#: The example the page opens with: small, line logic alone solves it, drawn for the project.
EXAMPLE = "heart.txt"


async def example(request: Request, limits: WebLimits, run: Run) -> Response:
    """A small example puzzle of our own, so the page never opens on an empty box."""
    from importlib import resources

    from gridsolve.web.responses import JSONResponse

    from gridsolve.nonogram.formats import parse_puzzle
    from gridsolve.web.payloads import to_puzzle_json

    text = (resources.files("gridsolve") / "examples" / EXAMPLE).read_text(encoding="utf-8")
    return JSONResponse({"name": EXAMPLE, "text": text,
                         "puzzle": to_puzzle_json(parse_puzzle(text, "auto", EXAMPLE))})


ROUTES: list[tuple[str, list[str], Callable[..., Awaitable[Any]]]] = [
    ("/api/nonogram/example", ["GET"], example),
    ("/api/nonogram/hint", ["POST"], hint),
    ("/api/nonogram/check", ["POST"], check),
]
