"""One declared schema for every JSON body the API takes, checked with msgspec and published.

Each POST route has one body type (``BODIES``): its fields, their types, defaults and a line of
help that is also the message of a refusal (422). Unknown fields are refused, ``null`` is not
"the default" and a string is never a boolean. ``json_schema()`` is the same declaration as
JSON Schema (served at ``GET /api/``). msgspec was chosen over pydantic for its start-up cost,
measured in the server's process (import, one body type, one check, its schema): 4-8 ms
against 86-96 ms.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Annotated, Any, Literal

from gridsolve.web.limits import ApiError

__all__ = ["BODIES", "HELP", "validate", "json_schema"]


def _msgspec() -> Any:
    try:
        import msgspec
    except ImportError:
        from gridsolve.errors import SolverUnavailable
        raise SolverUnavailable("msgspec", "web") from None
    return msgspec


#: The refusal of each field, one line for a person (the field's description in the schema).
HELP = {
    "text": "paste a puzzle (the text field is empty)",
    "format": "format must be auto or a format name (GET /api/nonogram/formats lists them)",
    "steps": "steps must be true or false",
    "solved": "solved must be true or false",
    "picture": "picture must be true or false",
    "as": "as must be svg or png",
    "width": "width must be a whole number from 1 to the server's max_generate_side",
    "height": "height must be a whole number from 1 to the server's max_generate_side",
    "seed": "seed must be a whole number from 0 to 4294967295, or null for a random one",
    "density": "density must be a number between 0 and 1, or null for the level's default",
    "level": "level must be any, line, probe or search",
    "colours": "colours must be a whole number from 1 (black and white) to the server's "
               "max_colours",
    "grid": "grid must be an array of row strings, or null for the empty board",
}

#: A whole number as text, as the CLI reads it (spaces around, a sign).
WHOLE_TEXT = r"^\s*[+-]?[0-9]{1,20}\s*$"


@cache
def _bodies() -> dict[str, Any]:
    """The body type of each POST route, built once (msgspec and the format names are read
    only when the server first needs them)."""
    ms = _msgspec()
    from gridsolve.nonogram.formats import FORMATS

    def meta(name: str, **kw: Any) -> Any:
        return ms.Meta(description=HELP[name], **kw)

    fmt: Any = Annotated[Literal[("auto", *FORMATS)], meta("format")]
    text = ("text", Annotated[str, meta("text")])
    form = ("format", fmt, "auto")

    def flag(name: str, default: bool) -> tuple[str, Any, Any]:
        return (name, Annotated[bool, meta(name)], default)

    def whole(name: str, lo: int, hi: int, default: Any) -> tuple[str, Any, Any]:
        kind: Any = (Annotated[int, ms.Meta(ge=lo, le=hi)]
                     | Annotated[str, ms.Meta(pattern=WHOLE_TEXT)])
        if default is None:
            kind = kind | None
        return (name, Annotated[kind, meta(name)], default)

    grid = ("grid", Annotated[list[str] | None, meta("grid")], None)
    fields: dict[str, list[Any]] = {
        "/api/nonogram/parse": [text, form],
        "/api/nonogram/solve": [text, form, flag("steps", True)],
        "/api/nonogram/generate": [
            whole("width", 1, 10_000, 10), whole("height", 1, 10_000, 10),
            ("density", Annotated[Annotated[float, ms.Meta(ge=0, le=1)] | None,
                                  meta("density")], None),
            whole("seed", 0, 2**32 - 1, None),
            ("level", Annotated[Literal["any", "line", "probe", "search"], meta("level")], "any"),
            flag("picture", False), whole("colours", 1, 10_000, 1)],
        "/api/nonogram/render": [
            text, form, ("as_", Annotated[Literal["svg", "png"], meta("as")],
                         ms.field(default="svg", name="as")),
            flag("solved", False)],
        "/api/nonogram/hint": [text, form, grid],
        "/api/nonogram/check": [text, form, grid],
    }
    return {path: ms.defstruct(_name(path), spec, forbid_unknown_fields=True,
                               module=__name__)
            for path, spec in fields.items()}


def _name(path: str) -> str:
    return path.rsplit("/", 1)[1].capitalize() + "Body"


BODIES = ("/api/nonogram/parse", "/api/nonogram/solve", "/api/nonogram/generate",
          "/api/nonogram/render", "/api/nonogram/hint", "/api/nonogram/check")

_AT = re.compile(r"at `\$\.([A-Za-z_]+)")
_FIELD = re.compile(r"field `([^`]*)`")


def validate(path: str, body: Any) -> dict[str, Any]:
    """The body of a request to ``path`` checked against its type: a dict with every field
    (defaults filled in), or ApiError 422 naming the field and what it must be."""
    ms = _msgspec()
    kind = _bodies()[path]
    try:
        value = ms.convert(body, kind)
    except ms.ValidationError as exc:
        raise ApiError(422, _message(str(exc), kind)) from None
    return {f.encode_name: getattr(value, f.name) for f in ms.structs.fields(kind)}


def _message(error: str, kind: Any) -> str:
    """msgspec's error as a sentence for a person."""
    ms = _msgspec()
    names = [f.encode_name for f in ms.structs.fields(kind)]
    where = _AT.search(error)
    if where and where.group(1) == "format":
        from gridsolve.nonogram.formats import FORMATS
        return f"unknown format; choose one of auto, {', '.join(FORMATS)}"
    if where and where.group(1) in HELP:
        return HELP[where.group(1)]
    field = _FIELD.search(error)
    if error.startswith("Object missing required field") and field and field.group(1) in HELP:
        return HELP[field.group(1)]
    if error.startswith("Object contains unknown field") and field:
        return (f"unknown field {field.group(1)!r} in the request body; this route takes "
                f"{', '.join(names)}")
    if error.startswith("Expected `object`"):
        return "the request body must be a JSON object"
    return "the request body does not match the schema at GET /api/: " + error


@cache
def json_schema() -> dict[str, Any]:
    """The JSON Schema of every body, by route, with the types under ``$defs``."""
    ms = _msgspec()
    kinds = _bodies()
    refs, defs = ms.json.schema_components([kinds[p] for p in BODIES],
                                           ref_template="#/$defs/{name}")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "routes": dict(zip(BODIES, refs)), "$defs": defs}
