"""Steve Simpson's ``.non`` format with the nonogram-db extensions (title, by, goal, ...).

    title "Dancer"              quoted strings may hold HTML escapes
    by "Jan Wolter"             also: catalogue, copyright, license (ignored by the solver)
    width 5                     width and height come before rows/columns/goal
    height 10
    rows                        then exactly `height` lines: "2,1" (a blank line or 0 = empty)
    ...
    columns                     then exactly `width` lines
    ...
    goal "0110001101..."        row by row, 0 = empty, 1 = filled (also unquoted or on lines)

Unknown lines (``maxrule``, ...) are ignored, as the spec says; Simpson's ``rows 10`` and
``columns 5`` are read as height and width, and his blank lines among clues are skipped when
the count of clue lines says so; but a clue line left over after a section's last (before
the next key) is an error naming its line, not ignored: that would read a different puzzle.
Webpbn's export calls this format ``ss``. ``====`` on a line separates puzzles of a
``.nonpack`` bundle. Colour keys and colour letters give a clear error.
Spec: github mikix/nonogram-db FORMAT.md (after Simpson's fmt2); pbnsolve doc/input.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import (COLOUR_UNSUPPORTED, Entry, build_puzzle,
                                                check_size, default_label, logical_lines,
                                                make_goal, only_entry, parse_int, read_number, shown)
from gridsolve.nonogram.model import AnyPuzzle, Grid, Puzzle

NAME = "non"
GOAL = True
EXTENSIONS = (".non", ".nonpack")

_KEY = re.compile(r"^\s*([A-Za-z]+)\b\s*(.*?)\s*$")
_CLUE_ITEM = re.compile(r"^([0-9]+)([A-Za-z]?)$")
_TEXT_KEYS = ("title", "by", "copyright", "catalogue", "license")  # only title is kept


def detect(text: str) -> bool:
    """Does it have `width`/`height` lines and a `rows` or `columns` line?"""
    keys = {m.group(1).lower() for s in logical_lines(text[:200000]) if (m := _KEY.match(s))}
    return {"width", "height"} <= keys and bool({"rows", "columns"} & keys)


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    from html import unescape  # titles only: most files never need the entity table
    return unescape(value)


def _clue(text: str, source: str | None, line: int) -> list[int]:
    out = []
    for item in re.split(r"[,\s]+", text.strip()):
        if not item:
            continue
        m = _CLUE_ITEM.match(item)
        if m is None:
            raise ParseError(f"{shown(item)} is not a clue number", source, line)
        if m.group(2):
            raise ParseError(f"{COLOUR_UNSUPPORTED} (clue {item!r})", source, line)
        out.append(read_number(m.group(1), "", source, line))
    return out


def _goal(first: str, lines: list[str], at: int, width: int, height: int,
          source: str | None, line: int) -> tuple[Grid, int]:
    """The goal after the `goal` key (inline, quoted, or on following lines); lines used."""
    cells = re.sub(r'[\s"]', "", first)
    used = 0
    while len(cells) < width * height and at + used < len(lines):
        nxt = lines[at + used].strip()
        key = _KEY.match(nxt)
        if not re.fullmatch(r'[0-9A-Za-z"\s]+', nxt) or key and key.group(1).lower() in _ALL_KEYS:
            break
        cells += re.sub(r'[\s"]', "", nxt)
        used += 1
    if re.search(r"[^01]", cells):
        bad = re.search(r"[^01]", cells).group(0)  # type: ignore[union-attr]
        if bad.isalpha() or bad.isdigit():
            raise ParseError(f"{COLOUR_UNSUPPORTED} (goal holds {bad!r})", source, line)
        raise ParseError(f"goal: unexpected character {bad!r}", source, line)
    if len(cells) != width * height:
        raise ParseError(f"goal has {len(cells)} cells, the puzzle has {width * height}",
                         source, line)
    rows = [cells[r * width:(r + 1) * width] for r in range(height)]
    return make_goal(rows, width, height, "1", "0", source, line), used


def _is_clue_line(text: str) -> bool:
    """Does the line read as a clue ("2,1", "3 4", "0", "3a,1b")? (blank: no)"""
    items = [item for item in re.split(r"[,\s]+", text) if item]
    return bool(items) and all(_CLUE_ITEM.match(item) for item in items)


def _section(lines: list[str], start: int, want: int) -> tuple[list[int], int, int | None]:
    """Indexes of a section's `want` clue lines, the index after them, and the index of a clue
    line left over before the next key (None: none; which one: see the end). Simpson's spec skips blank
    lines; nonogram-db and pbnsolve read a blank line as an empty clue. So when exactly `want`
    non-blank lines stand before the next key, blank lines are skipped; otherwise the next
    `want` lines are taken, blank ones as empty clues. Other lines left over (comments, ...)
    are ignored, as the spec says of lines it does not know. The clue line reported is the
    (want + 1)th of the section if there is one, too many however blank lines are read."""
    end = start
    while end < len(lines) and not _KEY.match(lines[end]):
        end += 1
    filled = [k for k in range(start, end) if lines[k].strip()]
    if len(filled) == want:
        return filled, end, None
    taken = list(range(start, min(start + want, len(lines))))
    extra = None
    if any(_is_clue_line(lines[k]) for k in range(start + want, end)):
        clue_lines = [k for k in filled if _is_clue_line(lines[k])]
        extra = clue_lines[want] if len(clue_lines) > want else next(
            k for k in range(start + want, end) if _is_clue_line(lines[k]))
    return taken, start + want, extra


_SIZE_SYNONYM = {"rows": "height", "columns": "width"}
_ALL_KEYS = {"width", "height", "rows", "columns", "goal", "saved", "color", *_TEXT_KEYS}


def _one(lines: list[str], offset: int, index: int, source: str | None,
         limits: bool) -> Entry:
    """Read one puzzle from lines (numbered from offset + 1 in the file)."""
    title: str | None = None
    size: dict[str, int] = {}
    clues: dict[str, tuple[list[list[int]], list[int]]] = {}
    goal: Grid | None = None
    i = 0
    while i < len(lines):
        n = offset + i + 1
        m = _KEY.match(lines[i])
        i += 1
        if m is None:
            continue
        key, value = m.group(1).lower(), m.group(2)
        if key in ("rows", "columns") and value:  # Simpson: 'rows 10' is 'height 10'
            key = _SIZE_SYNONYM[key]
        if key in ("width", "height"):
            if key in size:  # the goal and clue sections read so far took the first
                raise ParseError(f"second '{key}'", source, n)
            size[key] = parse_int(value, key, source, n)
        elif key == "title":
            title = _unquote(value)
        elif key == "color":
            raise ParseError(COLOUR_UNSUPPORTED, source, n)
        elif key in ("rows", "columns"):
            want = size.get("height" if key == "rows" else "width")
            if want is None:
                raise ParseError(f"'{key}' comes before '{'height' if key == 'rows' else 'width'}'",
                                 source, n)
            if key in clues:
                raise ParseError(f"second '{key}' section", source, n)
            if len(size) == 2:
                check_size(size["width"], size["height"], source, n, limits)
            at, i, extra = _section(lines, i, want)
            if len(at) < want:
                raise ParseError(f"'{key}' needs {want} lines, the file ends after {len(at)}",
                                 source, n)
            clues[key] = ([_clue(lines[k], source, offset + k + 1) for k in at],
                          [offset + k + 1 for k in at])
            if extra is not None:  # the same words as the other formats' take_lines
                raise ParseError(f"more than {want} {key[:-1]} lines", source, offset + extra + 1)
        elif key == "goal":
            if len(size) < 2:
                raise ParseError("'goal' comes before 'width' and 'height'", source, n)
            goal, used = _goal(value, lines, i, size["width"], size["height"], source, n)
            i += used
    missing = [k for k in ("width", "height") if k not in size] + [
        k for k in ("rows", "columns") if k not in clues]
    if missing:
        raise ParseError(f"missing '{missing[0]}'", source)
    (rows, row_lines), (cols, col_lines) = clues["rows"], clues["columns"]
    puzzle = build_puzzle(rows, cols, source, row_lines, col_lines, title=title, limits=limits)
    return Entry(source or "<input>", index, default_label(source, title), puzzle, goal)


def entries(text: str, source: str | None = None, limits: bool = True) -> Iterator[Entry]:
    """Every puzzle of a .non file (one) or a .nonpack bundle (separated by ====)."""
    lines = logical_lines(text)
    start = 0
    index = 0
    for i in [*(k for k, s in enumerate(lines) if s.strip() == "===="), len(lines)]:
        if any(s.strip() for s in lines[start:i]):
            yield _one(lines[start:i], start, index, source, limits)
            index += 1
        start = i + 1


def parse(text: str, source: str | None = None, limits: bool = True) -> AnyPuzzle:
    """Read one .non puzzle."""
    return only_entry(entries(text, source, limits), source).puzzle


def dump(puzzle: Puzzle, goal: Grid | None = None) -> str:
    """Write a puzzle (and its goal, if known) as .non."""
    out = []
    if puzzle.title:
        title = " ".join(puzzle.title.splitlines())  # one line; other spacing kept as is
        from html import escape
        # the other control characters (ESC, NUL, ...) and lone surrogates: as &#27; and so on
        title = re.sub("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]",
                       lambda m: f"&#{ord(m.group())};", escape(title, quote=True))
        out.append(f'title "{title}"')
    out += [f"width {puzzle.width}", f"height {puzzle.height}", "", "rows"]
    out += [",".join(map(str, c)) or "0" for c in puzzle.rows]
    out += ["", "columns"]
    out += [",".join(map(str, c)) or "0" for c in puzzle.cols]
    if goal is not None:
        cells = "".join(goal).replace("#", "1").replace(".", "0")
        out += ["", f'goal "{cells}"']
    return "\n".join(out) + "\n"
