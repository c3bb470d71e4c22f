"""The web app (extra ``gridsolve[web]``): ``create_app()`` gives the Starlette application.

    web/app.py           the application factory and the bounded solve pool
    web/limits.py        WebLimits (what the server accepts) and ApiError (a refusal)
    web/api.py           nonogram handlers and the API description served at /api/
    web/calendar_api.py  calendar handlers
    web/payloads.py      size- and time-limited JSON bodies and the solve payload
    web/schema.py        the declared schema of every body (msgspec), served at /api/
    web/server.py        how `gridsolve serve` runs it: uvicorn with capped, timed connections
    web/static/          the page: plain ES modules, no build step, nothing from other hosts
"""

from __future__ import annotations

from gridsolve.web.app import create_app
from gridsolve.web.limits import ApiError, WebLimits

__all__ = ["create_app", "WebLimits", "ApiError"]
