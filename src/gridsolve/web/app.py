"""The web app: a Starlette application serving the static page and the JSON API.

Limits live in one frozen ``WebLimits`` (``web/limits.py``, beside ``ApiError``); every request
body is read through ``read_json`` (413 above ``max_body``), every solve runs in a worker
thread under one ``CapacityLimiter`` (at most ``max_solves`` at once, 503 when ``max_waiting``
more already queue) with the engine's own time budget (408 when it runs out). The server
never opens a path named in a request.

Every error goes out as JSON ``{"error": one line}``: a handler's ``ApiError`` with its status,
a library error it did not wrap as 422 (501 for a missing extra, 408 for a limit), Starlette's
own 404/405 as they are, and anything unexpected as a 500 whose traceback goes to the server's
log, never to the client.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from importlib import resources
from typing import Any, TypeVar

from gridsolve.errors import GridsolveError, LimitReached, SolverUnavailable
from gridsolve.web.limits import ApiError, WebLimits

__all__ = ["create_app"]

T = TypeVar("T")


def _starlette() -> Any:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise SolverUnavailable("starlette/uvicorn", "web") from None
    try:
        import msgspec  # noqa: F401
    except ImportError:
        raise SolverUnavailable("msgspec", "web") from None
    return starlette


#: Sent with every response: no scripts, styles or images from anywhere but this server.
SECURITY_HEADERS = {
    "content-security-policy": ("default-src 'self'; img-src 'self' data: blob:; "
                                "style-src 'self'; script-src 'self'; object-src 'none'; "
                                "frame-ancestors 'none'; base-uri 'none'"),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


class SecurityHeaders:
    """ASGI middleware adding ``SECURITY_HEADERS`` to every HTTP response."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()
                         if k.encode() not in names]
                message = dict(message, headers=[*message.get("headers", []), *extra])
            await send(message)

        await self.app(scope, receive, send_with_headers)


#: The page's files, by name: each served at ``/name`` (index.html at ``/``), read once.
STATIC = {"index.html": "text/html; charset=utf-8", "main.js": "text/javascript",
          "nonogram.js": "text/javascript", "play.js": "text/javascript",
          "play_state.js": "text/javascript", "play_colour.js": "text/javascript",
          "clues.js": "text/javascript", "board.js": "text/javascript",
          "calendar.js": "text/javascript", "util.js": "text/javascript", "style.css": "text/css",
          "favicon.svg": "image/svg+xml"}


def static_files() -> list[tuple[str, bytes, str]]:
    """The page's files from the package (a fixed list: no request ever names a path)."""
    folder = resources.files("gridsolve.web") / "static"
    return [(name, (folder / name).read_bytes(), media) for name, media in STATIC.items()]


def _static(data: bytes, media: str) -> Callable[[Any], Any]:
    from starlette.responses import Response

    async def serve(request: Any) -> Response:
        return Response(data, media_type=media, headers={"cache-control": "no-cache"})
    return serve


_log = logging.getLogger("gridsolve.web")

#: What the client is told of an error nobody foresaw (the traceback goes to the log).
INTERNAL = "the server failed on this request (a bug in gridsolve: please report it)"


def error_of(exc: Exception, path: str) -> tuple[int, str]:
    """The HTTP status and one-line message of an error a handler raised."""
    if isinstance(exc, ApiError):
        return exc.status, exc.message
    if isinstance(exc, GridsolveError):
        status = 501 if isinstance(exc, SolverUnavailable) else (
            408 if isinstance(exc, LimitReached) else 422)
        return status, " ".join(str(exc).split())
    from starlette.requests import ClientDisconnect  # (the app runs: the web extra is there)
    if isinstance(exc, ClientDisconnect):  # the client left mid-body: not a server bug
        return 400, "the request ended before its body did"
    _log.error("unexpected error on %s", path, exc_info=exc)
    return 500, INTERNAL


def create_app(limits: WebLimits = WebLimits()) -> Any:
    """The Starlette application (raises SolverUnavailable without the ``web`` extra)."""
    _starlette()
    import anyio
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.requests import Request
    from starlette.responses import Response

    from gridsolve.web.responses import JSONResponse
    from starlette.middleware import Middleware
    from starlette.routing import BaseRoute, Route

    from gridsolve.web import api

    limiter = anyio.CapacityLimiter(limits.max_solves)

    async def run_bounded(fn: Callable[[], T]) -> T:
        """Run fn in a worker thread, at most ``max_solves`` at once; 503 if the queue is full."""
        stats = limiter.statistics()
        if stats.borrowed_tokens >= limiter.total_tokens and stats.tasks_waiting >= limits.max_waiting:
            raise ApiError(503, "the server is busy solving other puzzles; try again in a moment")
        return await anyio.to_thread.run_sync(fn, limiter=limiter)

    def endpoint(handler: Callable[..., Any]) -> Callable[[Request], Any]:
        async def call(request: Request) -> Response:
            try:
                return await handler(request, limits, run_bounded)  # type: ignore[no-any-return]
            except Exception as exc:  # every error a JSON line; only a bug is a 500
                status, message = error_of(exc, request.url.path)
                return JSONResponse({"error": message}, status_code=status)
        return call

    async def http_error(request: Request, exc: Exception) -> Response:
        """Starlette's own refusals (404 no such path, 405 wrong method) as JSON."""
        status, detail = getattr(exc, "status_code", 500), getattr(exc, "detail", INTERNAL)
        return JSONResponse({"error": str(detail)}, status_code=status,
                            headers=getattr(exc, "headers", None))

    async def server_error(request: Request, exc: Exception) -> Response:
        """Anything that escaped a handler (in middleware, say): a JSON 500, no traceback."""
        return JSONResponse({"error": error_of(exc, request.url.path)[1]}, status_code=500)

    routes: list[BaseRoute] = [Route(path, endpoint(handler), methods=methods)
                               for path, methods, handler in api.ROUTES]
    for name, data, media in static_files():
        routes.append(Route("/" if name == "index.html" else f"/{name}", _static(data, media),
                            methods=["GET", "HEAD"]))
    app = Starlette(routes=routes, middleware=[Middleware(SecurityHeaders)],
                    exception_handlers={HTTPException: http_error, Exception: server_error})
    app.state.limits = limits
    return app
