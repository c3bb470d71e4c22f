"""The API's JSON responses: Starlette's, except that text a puzzle file held can never make
one fail. A JSON puzzle may name its title "\\ud800", a lone surrogate, which UTF-8 cannot
encode; such a response is written with ASCII escapes instead (JSON allows them: the client
reads the same string)."""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import JSONResponse as _JSONResponse

__all__ = ["JSONResponse"]


class JSONResponse(_JSONResponse):
    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, ensure_ascii=True, allow_nan=False, indent=None,
                              separators=(",", ":")).encode("ascii")
