"""How ``gridsolve serve`` runs the app: uvicorn with connections that cannot run it dry.

Plain uvicorn keeps a connection that never sends a whole request for ever: 1,100 idle sockets
used the common 1,024 descriptors and the server never answered again (issue 53). Here:

- the soft limit on descriptors is raised to the hard one (``raise_descriptor_limit``);
- at most ``max_connections`` are open at once, well below that limit; a new one past it
  closes the connection that has waited longest for a request, and only when every one is
  busy with a request is the new one refused with a JSON 503 (so no flood of idle
  connections keeps a real request out);
- a request's head must arrive within ``idle_timeout`` seconds of the connection opening or
  of the previous response (then a JSON 408 if part of it came, else a silent close); its body
  within ``body_timeout`` (``payloads.read_json``);
- every refusal from the HTTP layer is JSON too (a bad ``Content-Length`` was plain text).

Chosen by measurement over plain uvicorn options (``benchmarks/limits_web.py``): uvicorn's own
``limit_concurrency`` refuses in plain text and counts idle connections as load, and nothing in
it closes a connection before its first request.
"""

from __future__ import annotations

import json
import resource
import time
from typing import Any

from gridsolve.web.limits import WebLimits

__all__ = ["raise_descriptor_limit", "connection_cap", "accept_backlog", "make_server",
           "raw_response"]

#: Descriptors kept for everything but connections: the listening socket, the event loop,
#: log files, the solve threads' files; at least this many, or an eighth of the limit.
RESERVED_DESCRIPTORS = 32


def raise_descriptor_limit() -> int:
    """Raise the soft limit on open descriptors to the hard one; the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft == resource.RLIM_INFINITY or soft >= want:
        return soft if soft != resource.RLIM_INFINITY else want
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    except (ValueError, OSError):
        return soft
    return want


def accept_backlog(descriptors: int) -> int:
    """The listening queue, which is also how many connections the event loop accepts in one
    go before any of them is counted (or an old one closed): large enough for a burst (a client
    opens connections faster than the loop takes them; past the queue its connects wait 1 s),
    small under a low limit."""
    return max(16, min(2048, descriptors // 8))


def connection_cap(limits: WebLimits, descriptors: int) -> int:
    """Connections open at once: the configured most, and always some descriptors spare (the
    reserve, and one burst of accepted connections not yet counted)."""
    spare = max(RESERVED_DESCRIPTORS, descriptors // 8) + accept_backlog(descriptors)
    return max(1, min(limits.max_connections, descriptors - spare))


#: Headers of every response the HTTP layer writes itself (the app adds the same).
RAW_HEADERS = (b"content-type: application/json\r\nconnection: close\r\n"
               b"x-content-type-options: nosniff\r\nx-frame-options: DENY\r\n"
               b"cache-control: no-store\r\n")
REASONS = {400: b"Bad Request", 408: b"Request Timeout", 503: b"Service Unavailable"}


def raw_response(status: int, message: str) -> bytes:
    """A whole HTTP/1.1 response ``{"error": message}`` that closes the connection."""
    body = json.dumps({"error": message}).encode()
    return (b"HTTP/1.1 %d %s\r\n" % (status, REASONS[status]) + RAW_HEADERS
            + b"content-length: %d\r\n\r\n" % len(body) + body)


def protocol_class(limits: WebLimits, cap: int) -> type[Any]:
    """uvicorn's h11 protocol with the connection cap and the request-head timeout."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    busy = raw_response(503, "the server has too many connections open; try again in a moment")
    late = raw_response(408, f"the request did not arrive within {limits.idle_timeout:g} s")
    waiting: dict[Any, None] = {}  # connections waiting for a request's head, oldest first

    class GuardedProtocol(H11Protocol):
        """One connection: counted against the cap, closed when it idles too long."""

        refused = False
        waiting_since: float | None = None  # waiting for a request's head since (monotonic)
        partial = False  # part of a request's head has come
        timer: Any = None

        def connection_made(self, transport: Any) -> None:
            if len(self.connections) >= cap and not self._evict_one():
                self.refused = True
                transport.write(busy)
                transport.close()
                return
            super().connection_made(transport)
            self._wait_for_head()

        def _evict_one(self) -> bool:
            """Close the connection that has waited longest for a request; False if none is
            waiting (every one is busy with a request)."""
            if not waiting:
                return False
            next(iter(waiting))._expire()
            return True

        def _wait_for_head(self) -> None:
            self._stop_timer()
            self.waiting_since = time.monotonic()
            waiting[self] = None
            self.partial = False
            self.timer = self.loop.call_later(limits.idle_timeout, self._expire)

        def _stop_timer(self) -> None:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            self.waiting_since = None
            waiting.pop(self, None)

        def _expire(self) -> None:
            """The head did not come in time: 408 if part of it did, then close."""
            waited = self.waiting_since is not None
            self._stop_timer()
            self.connections.discard(self)  # its descriptor is as good as free
            if waited and not self.transport.is_closing():
                if self.partial:
                    self.transport.write(late)
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self.refused:
                return
            super().data_received(data)
            if self.waiting_since is not None:
                if self.conn.their_state is h11.IDLE:
                    self.partial = True
                else:
                    self._stop_timer()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self._wait_for_head()

        def connection_lost(self, exc: Exception | None) -> None:
            if self.refused:
                return
            self._stop_timer()
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            """A request h11 cannot read (a bad Content-Length, say): JSON, as every refusal."""
            self._stop_timer()
            self.transport.write(raw_response(400, f"the HTTP request could not be read ({msg})"))
            self.transport.close()

    return GuardedProtocol


def make_server(app: Any, limits: WebLimits, descriptors: int | None = None) -> Any:
    """The uvicorn server for the app, with the guarded protocol (``descriptors``: the soft
    limit to plan for; the current one if not given)."""
    import uvicorn

    if descriptors is None:
        descriptors = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if descriptors == resource.RLIM_INFINITY:
            descriptors = 65536
    cap = connection_cap(limits, descriptors)
    config = uvicorn.Config(app, log_level="warning", http=protocol_class(limits, cap),
                            timeout_keep_alive=max(1, round(limits.idle_timeout)),
                            backlog=accept_backlog(descriptors), lifespan="off")
    return uvicorn.Server(config)
