"""What the web server accepts (``WebLimits``) and how a handler refuses a request (``ApiError``).

A module of its own, below the application and its handlers, so that ``app.py`` (which
builds the routes from ``api.py``) and the handlers that raise ``ApiError`` never import
each other.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["WebLimits", "ApiError"]


@dataclass(frozen=True)
class WebLimits:
    """What the server accepts: body bytes, puzzle side, seconds per solve, solves at once,
    connections at once and how long each may take to send its request."""

    max_body: int = 1024 * 1024
    max_side: int = 200
    budget: float = 10.0
    max_solves: int = 2
    max_waiting: int = 8
    max_steps: int = 50_000
    #: Bytes the recorded steps of one solve may hold (about 24 MB of JSON at most).
    max_step_bytes: int = 16 * 2**20
    max_generate_side: int = 40
    #: Connections open at once (fewer when the descriptor limit is low: ``web/server.py``).
    max_connections: int = 1000
    #: Seconds a connection may take to send a request's head (from opening, or from the
    #: previous response) and its body.
    idle_timeout: float = 10.0
    body_timeout: float = 10.0


class ApiError(Exception):
    """A request the API refuses: HTTP status and a one-line message for a person."""

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        self.message = message
        super().__init__(message)
