"""The JSON API under ``/api/``: one async handler per route, each ``(request, limits, run)``.

Handlers only wire the library together: ``formats`` reads the text, the engines solve (in a
worker thread through ``run``, under the time budget), and results go out as plain JSON.
``INDEX`` describes every route; ``GET /api/`` serves it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from gridsolve.errors import LimitReached, SolverUnavailable
from gridsolve.numbers import MAX_JSON_DIGITS, is_number
from gridsolve.web.limits import ApiError, WebLimits
from gridsolve.web import calendar_api, play_api
from gridsolve.web.payloads import (give_back_memory, read_json, solve_payload, solve_puzzle,
                                    to_puzzle_json)
from gridsolve.web.payloads import puzzle_of as _puzzle

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

__all__ = ["ROUTES", "INDEX"]

Run = Callable[[Callable[[], Any]], Awaitable[Any]]

INDEX: dict[str, Any] = {
    "name": "gridsolve web API",
    "errors": "every refusal is JSON {\"error\": one line}: 400 a request HTTP cannot read, "
              "408 time budget exceeded (a solve answers status unknown instead) or a request "
              "that did not arrive in time, 413 body over the size limit, 422 input that "
              "cannot be read, is too large or does not match the schema, 501 an extra is "
              "missing, 503 too many solves or connections at once",
    "endpoints": [
        {"method": "GET", "path": "/api/", "returns": "this description and the limits"},
        {"method": "GET", "path": "/api/nonogram/formats", "returns": "{formats: [name]}"},
        {"method": "POST", "path": "/api/nonogram/parse",
         "body": {"text": "puzzle text", "format": "auto | a format name"},
         "returns": "{puzzle: {width, height, rows, cols, title, palette (colour only): "
                    "[{name, rgb, symbol}]}, format}"},
        {"method": "POST", "path": "/api/nonogram/solve",
         "body": {"text": "puzzle text", "format": "auto", "steps": "true to record the steps"},
         "returns": "{puzzle, status: unique|multiple|none|unknown, solutions: [[row]], "
                    "partial: [row] (the cells proven; '?' open), nodes, seconds, "
                    "rating: {level, score, ...}, steps: [{kind, cells, values, line, cell, "
                    "depth, round, probing, contradiction}], complete}; status unknown (200) "
                    "when the time budget ran out, with rating null and no steps; a colour "
                    "puzzle's solutions and step values are palette symbols (a guess that "
                    "takes a colour away names it in excluded)"},
        {"method": "POST", "path": "/api/nonogram/generate",
         "body": {"width": "1..max", "height": "1..max", "density": "0..1 (default by level)",
                  "seed": "int", "level": "any|line|probe|search: the level the puzzle must "
                  "need, as the rating confirms", "picture": "true for smooth shapes",
                  "colours": "1 (black and white, the default) ..max_colours: ink colours on "
                  "white"},
         "returns": "{text (JSON for a colour puzzle), puzzle, seed, status: unique (proven), "
                    "rating: {level, score}}; 408 when no puzzle of the level was found in "
                    "time"},
        {"method": "POST", "path": "/api/nonogram/render",
         "body": {"text": "puzzle text", "format": "auto", "as": "svg|png",
                  "solved": "true to draw the (first) solution"},
         "returns": "image/svg+xml or image/png"},
        *play_api.ENDPOINTS,
        {"method": "GET", "path": "/api/calendar/editions", "returns": "{editions: [name]}"},
        {"method": "GET", "path": "/api/calendar/solutions",
         "query": {"date": "YYYY-MM-DD, 'Oct 6' or today", "edition": "original|weekday",
                   "limit": "most solutions to list (default 500)"},
         "returns": "{date, edition, count, board, pieces, open, solutions: [[{piece, cells}]]}"},
        {"method": "GET", "path": "/api/calendar/year", "query": {"edition": "original|weekday"},
         "returns": "{edition, lo, hi, days: [{month, day, mean, min, max, colour}]}"},
    ],
}


async def index(request: Request, limits: WebLimits, run: Run) -> Response:
    """Describe the API and its limits."""
    from gridsolve.web.responses import JSONResponse

    from gridsolve.web.schema import json_schema

    doc = dict(INDEX, limits={"max_body_bytes": limits.max_body, "max_side": limits.max_side,
                              "budget_seconds": limits.budget, "max_solves": limits.max_solves,
                              "max_steps": limits.max_steps,
                              "max_step_bytes": limits.max_step_bytes,
                              "max_generate_side": limits.max_generate_side,
                              "max_colours": _max_colours(),
                              "max_connections": limits.max_connections,
                              "idle_timeout_seconds": limits.idle_timeout,
                              "body_timeout_seconds": limits.body_timeout},
               schema=json_schema())
    return JSONResponse(doc)


async def formats(request: Request, limits: WebLimits, run: Run) -> Response:
    """The nonogram formats the parser knows."""
    from gridsolve.web.responses import JSONResponse

    from gridsolve.nonogram.formats import FORMATS

    return JSONResponse({"formats": ["auto", *FORMATS]})


async def parse(request: Request, limits: WebLimits, run: Run) -> Response:
    """Read a puzzle and describe it (no solving)."""
    from gridsolve.web.responses import JSONResponse

    body = await read_json(request, limits)
    puzzle, name = await run(lambda: _puzzle(body, limits))  # (a 1 MB text: seconds)
    return JSONResponse({"puzzle": to_puzzle_json(puzzle), "format": name})


async def solve(request: Request, limits: WebLimits, run: Run) -> Response:
    """Solve a puzzle under the time budget, with its rating and (optionally) its steps."""
    from gridsolve.web.responses import JSONResponse

    body = await read_json(request, limits)
    steps = body.get("steps", True)
    if not isinstance(steps, bool):  # "false" is a string, and bool("false") is True
        raise ApiError(422, "steps must be true or false")
    puzzle, name = await run(lambda: _puzzle(body, limits))  # (a 1 MB text: seconds)
    payload = await run(lambda: solve_payload(puzzle, limits, steps))
    payload["format"] = name
    if not payload.get("steps"):
        return JSONResponse(payload)
    import anyio  # megabytes of steps: written off the event loop, then the memory given back

    response: Response = await anyio.to_thread.run_sync(JSONResponse, payload)
    payload.clear()
    give_back_memory()
    return response


async def generate(request: Request, limits: WebLimits, run: Run) -> Response:
    """A random puzzle with a proven unique solution."""
    from gridsolve.web.responses import JSONResponse

    from gridsolve.nonogram.formats import write_puzzle
    from gridsolve.nonogram.generate import generate as make
    from gridsolve.nonogram.generate_colour import generate_colour

    body = await read_json(request, limits)
    side = limits.max_generate_side
    width, height = _int(body, "width", 10, 1, side), _int(body, "height", 10, 1, side)
    colours = _int(body, "colours", 1, 1, _max_colours())
    seed = None if body.get("seed") is None else _int(body, "seed", 0, 0, 2**32 - 1)
    density = body.get("density")
    level = body.get("level", "any")
    picture = body.get("picture", False)
    if density is not None and (not isinstance(density, (int, float)) or isinstance(density, bool)
                                or not 0 <= density <= 1):
        raise ApiError(422, "density must be a number between 0 and 1")
    if level not in ("any", "line", "probe", "search"):
        raise ApiError(422, "level must be any, line, probe or search")
    if not isinstance(picture, bool):
        raise ApiError(422, "picture must be true or false")

    def work() -> Any:
        rho = None if density is None else float(density)
        try:
            if colours > 1:
                return generate_colour(width, height, colours, density=rho, seed=seed,
                                       level=level, timeout=limits.budget, picture=picture)
            return make(width, height, density=rho, seed=seed, level=level,
                        timeout=limits.budget, picture=picture)
        except LimitReached as exc:
            raise ApiError(408, f"{exc} (the server's time budget is {limits.budget:g} s)") from None

    made = await run(work)
    r = made.rating
    text = write_puzzle(made.puzzle, "text" if colours == 1 else "json")
    return JSONResponse({"text": text, "seed": made.seed, "status": r.status,
                         "puzzle": to_puzzle_json(made.puzzle),
                         "rating": {"level": r.level, "score": r.score}})


async def render(request: Request, limits: WebLimits, run: Run) -> Response:
    """The puzzle (solved or blank) as an SVG or PNG picture to download."""
    from starlette.responses import Response

    body = await read_json(request, limits)
    puzzle, _ = await run(lambda: _puzzle(body, limits))
    kind = body.get("as", "svg")
    if kind not in ("svg", "png"):
        raise ApiError(422, "as must be svg or png")
    grid = None
    if body.get("solved") is True:  # the first solution, or the cells proven in the budget
        result = await run(lambda: solve_puzzle(puzzle, limits))
        grid = (result.solutions[0] if result.solutions
                else result.partial if result.status == "unknown" else None)

    def draw() -> bytes:
        if kind == "svg":
            from gridsolve.nonogram.render.svg import puzzle_svg
            return puzzle_svg(puzzle, grid).encode()
        from gridsolve.nonogram.render.png import puzzle_image
        import io
        out = io.BytesIO()
        puzzle_image(puzzle, grid).save(out, format="PNG")
        return out.getvalue()

    try:
        data = await run(draw)
    except SolverUnavailable as exc:
        raise ApiError(501, str(exc)) from None
    media = "image/svg+xml" if kind == "svg" else "image/png"
    return Response(data, media_type=media,
                    headers={"content-disposition": f'attachment; filename="puzzle.{kind}"'})


def _max_colours() -> int:
    """The most ink colours the generator draws (its palette's size)."""
    from gridsolve.nonogram.generate_colour import MAX_COLOURS
    return MAX_COLOURS


def _int(body: dict[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    """A whole number from the body, as a JSON number or a string of ASCII digits, signed or
    not, as the CLI takes it (422 for anything else: '١', '²', thousands of digits)."""
    value = body.get(key, default)
    if isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text[:1] in ("-", "+") else text
        if is_number(digits) and len(digits) <= MAX_JSON_DIGITS:
            value = int(text)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ApiError(422, f"{key} must be a whole number from {lo} to {hi}")
    return value


ROUTES: list[tuple[str, list[str], Callable[..., Awaitable[Any]]]] = [
    ("/api/", ["GET"], index),
    ("/api/nonogram/formats", ["GET"], formats),
    ("/api/nonogram/parse", ["POST"], parse),
    ("/api/nonogram/solve", ["POST"], solve),
    ("/api/nonogram/generate", ["POST"], generate),
    ("/api/nonogram/render", ["POST"], render),
    *play_api.ROUTES,
    ("/api/calendar/editions", ["GET"], calendar_api.editions),
    ("/api/calendar/solutions", ["GET"], calendar_api.solutions),
    ("/api/calendar/year", ["GET"], calendar_api.year),
]
