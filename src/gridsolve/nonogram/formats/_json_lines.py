"""Where a value sits in a JSON text: the line an error about it names.

``json.loads`` forgets positions, so a reader that finds a bad value by its path (``rows``,
3) walks the text again to that path, only on the way to an error:

    json_line(text, ("rows", 3))    the line (from 1) where rows[3] starts; None if absent
    item_lines(text, ("rows",))     the line of each item of the array at that path

The text must be one ``load_json`` accepted (valid JSON); a key given twice is found where
``json.loads`` takes it from, its last occurrence. Lines are counted as the other readers
count them (LF, CRLF or CR ends a line; ``json.loads`` counts LF only). The walk is iterative (no recursion on
deep nesting) and linear in the text up to the value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["json_line", "item_lines"]

_SPACE = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
#: An array of numbers and literals only (a clue): skipped in one match.
_FLAT = re.compile(r"\[[^\[\]{}\"]*\]")
#: A number or a literal (json.loads also takes NaN and Infinity).
_SCALAR = re.compile(r"-?(?:[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|Infinity)|NaN|true|false|null")

Path = Sequence[str | int]


def _space(text: str, i: int) -> int:
    return _SPACE.match(text, i).end()  # type: ignore[union-attr]  # always matches


def _string_end(text: str, i: int) -> int:
    """The index just past the string that starts at ``i``."""
    found = _STRING.match(text, i)
    return len(text) if found is None else found.end()


def _decoded(string: str) -> str:
    """A JSON string's text (escapes read)."""
    import json  # here: only an error's way to its line reads JSON keys (start-up stays small)
    key: str = json.loads(string)
    return key


def _skip(text: str, i: int) -> int:
    """The index just past the value that starts at ``i``."""
    depth = 0
    while True:
        i = _space(text, i)
        c = text[i]
        if c == '"':
            i = _string_end(text, i)
        elif c == "[" and (flat := _FLAT.match(text, i)) is not None:
            i = flat.end()
        elif c in "[{":
            depth += 1
            i += 1
        elif c in "]}":
            depth -= 1
            i += 1
        elif c in ",:":
            i += 1
            continue
        else:
            scalar = _SCALAR.match(text, i)
            if scalar is None:  # not JSON load_json accepted: stop here
                return len(text)
            i = scalar.end()
        if depth <= 0:
            return i


def _items(text: str, i: int, upto: int | None = None) -> list[int]:
    """The start of each item of the array that opens at ``i`` (up to item ``upto``: the
    walk stops there, not skipping it, so a path is found in one pass)."""
    starts: list[int] = []
    i = _space(text, i + 1)
    while i < len(text) and text[i] != "]":
        starts.append(i)
        if upto is not None and len(starts) > upto:
            break
        i = _space(text, _skip(text, i))
        if i < len(text) and text[i] == ",":
            i = _space(text, i + 1)
    return starts


def _member(text: str, i: int, key: str) -> int | None:
    """The start of ``key``'s value in the object that opens at ``i`` (its last one)."""
    found = None
    i = _space(text, i + 1)
    while i < len(text) and text[i] == '"':
        end = _string_end(text, i)
        name, i = _decoded(text[i:end]), end
        i = _space(text, _space(text, i) + 1)  # past the colon
        if name == key:
            found = i
        i = _space(text, _skip(text, i))
        if i < len(text) and text[i] == ",":
            i = _space(text, i + 1)
    return found


def _find(text: str, path: Path) -> int | None:
    """The index where the value at ``path`` starts, or None."""
    i: int | None = _space(text, 1 if text.startswith("\ufeff") else 0)
    for step in path:
        if i is None or i >= len(text):
            return None
        if isinstance(step, str):
            i = _member(text, i, step) if text[i] == "{" else None
        else:
            items = _items(text, i, step) if text[i] == "[" and step >= 0 else []
            i = items[step] if 0 <= step < len(items) else None
    return i


def _breaks(text: str, start: int, end: int) -> int:
    """Line breaks in text[start:end] as an editor counts them (LF, CRLF, CR; as
    ``numbers.text_lines`` splits)."""
    return (text.count("\n", start, end) + text.count("\r", start, end)
            - text.count("\r\n", start, end))


def _line(text: str, i: int) -> int:
    return _breaks(text, 0, i) + 1


def json_line(text: str, path: Path) -> int | None:
    """The line (from 1) where the value at ``path`` (keys and indices) starts; None if the
    path is not in the text."""
    i = _find(text, path)
    return None if i is None else _line(text, i)


def item_lines(text: str, path: Path) -> list[int]:
    """The line of each item of the array at ``path`` ([] if there is none)."""
    i = _find(text, path)
    if i is None or text[i] != "[":
        return []
    starts = _items(text, i)
    lines, line, last = [], 1, 0
    for s in starts:  # counted as it goes: linear, not one count from the top per item
        line += _breaks(text, last, s)
        last = s
        lines.append(line)
    return lines
