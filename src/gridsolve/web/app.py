"""The web app: a Starlette application serving the static page and the JSON API.

Limits live in one frozen ``WebLimits`` (``web/limits.py``, beside ``ApiError``); every request
body is read through ``read_json`` (413 above ``max_body``), every solve runs in a worker thread under one ``CapacityLimiter``
(at most ``max_solves`` at once, 503 when ``max_waiting`` more already queue) with the engine's
own time budget (408 when it runs out). The server never opens a path named in a request.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import Any, TypeVar

from gridsolve.errors import SolverUnavailable
from gridsolve.web.limits import ApiError, WebLimits

__all__ = ["create_app"]

T = TypeVar("T")


def _starlette() -> Any:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise SolverUnavailable("starlette/uvicorn", "web") from None
    return starlette


#: Sent with every response: no scripts, styles or images from anywhere but this server.
SECURITY_HEADERS = {
    "content-security-policy": ("default-src 'self'; img-src 'self' data: blob:; "
                                "style-src 'self'; script-src 'self'; object-src 'none'; "
                                "frame-ancestors 'none'; base-uri 'none'"),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
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
          "clues.js": "text/javascript",
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


def create_app(limits: WebLimits = WebLimits()) -> Any:
    """The Starlette application (raises SolverUnavailable without the ``web`` extra)."""
    _starlette()
    import anyio
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
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
            except ApiError as exc:
                return JSONResponse({"error": exc.message}, status_code=exc.status)
        return call

    routes: list[BaseRoute] = [Route(path, endpoint(handler), methods=methods)
                               for path, methods, handler in api.ROUTES]
    for name, data, media in static_files():
        routes.append(Route("/" if name == "index.html" else f"/{name}", _static(data, media),
                            methods=["GET", "HEAD"]))
    app = Starlette(routes=routes, middleware=[Middleware(SecurityHeaders)])
    app.state.limits = limits
    return app
