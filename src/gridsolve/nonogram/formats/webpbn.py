"""webpbn's puzzle XML (also pbnsolve's native format): ``<puzzleset><puzzle>...``.

    <puzzleset>
      <puzzle type="grid" defaultcolor="black">   (the colour of a plain <count>)
        <title>Dancer</title> <author>...</author> <copyright>...</copyright>
        <color name="white" char=".">fff</color> <color name="black" char="X">000</color>
        <clues type="columns"><line><count>2</count><count>1</count></line>...</clues>
        <clues type="rows">...</clues>              (an empty <line/> is an empty clue)
        <solution type="goal"><image>|.XX..|...</image></solution>
      </puzzle>
    </puzzleset>

Colour puzzles declare each colour (``<color name="red" char="r">f00</color>``, 3 or 6 hex
digits) and name it on counts (``<count color="red">3</count>``); a puzzle whose clues use one
colour only reads as a black-and-white Puzzle, any other as a ColourPuzzle whose goal is
written in palette symbols.

Spec: webpbn.com/pbn_fmt.html. Hostile XML is refused: internal DTD subsets and entity
declarations are rejected before parsing, and the expat parser never fetches external DTDs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from gridsolve.errors import GridsolveError, ParseError
from gridsolve.nonogram.formats._colours import PaletteBuilder, colour_result, rgb_of
from gridsolve.nonogram.formats._common import (Entry, default_label, make_goal, only_entry,
                                                parse_int)
from gridsolve.nonogram.model import AnyPuzzle, ColourPuzzle, Grid

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

NAME = "webpbn"
EXTENSIONS = (".xml", ".pbn")
GOAL = True
COLOUR = True


def quoteattr(value: str) -> str:
    """An XML attribute value, quoted (``xml.sax.saxutils`` would import urllib and http:
    a tenth of the CLI's start-up; html only when a file is written)."""
    from html import escape
    return f'"{escape(value)}"'


#: What XML 1.0 cannot hold even escaped: C0 controls but tab, newline and carriage return,
#: lone surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_chars(value: str) -> str:
    """The text with U+FFFD for each character XML cannot hold (a title read from JSON may
    have an ESC or a NUL: written as it is, the file would be read by nobody, us included)."""
    return _NOT_XML.sub("\ufffd", value)


def _text(value: str) -> str:
    """XML character data: '&', '<' and '>' escaped, what XML cannot hold replaced."""
    from html import escape
    return escape(_xml_chars(value), quote=False)


def detect(text: str) -> bool:
    """Does it start like XML with a <puzzleset> or <puzzle> element?"""
    head = text[:4096].lstrip("\ufeff \t\r\n")
    return head.startswith("<") and bool(re.search(r"<puzzle(set)?[\s>]", text[:65536]))


Lines = dict["ET.Element", int]


def _load(text: str, source: str | None) -> tuple[ET.Element, Lines]:
    """The element tree, and the line each element starts on (for error messages). The XML
    modules are imported here, when an XML file is read, not by every command's start-up."""
    import xml.etree.ElementTree as ET
    from xml.parsers import expat
    m = re.search(r"<!ENTITY|<!DOCTYPE[^>\[]*\[", text)
    if m:
        raise ParseError("XML with an internal DTD or entity declarations is refused",
                         source, text[:m.start()].count("\n") + 1)
    parser = expat.ParserCreate()
    builder = ET.TreeBuilder()
    lines: Lines = {}

    def start(tag: str, attrs: dict[str, str]) -> None:
        lines[builder.start(tag, attrs)] = parser.CurrentLineNumber

    parser.StartElementHandler = start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.data
    parser.buffer_text = True
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise ParseError(f"invalid XML: {expat.ErrorString(exc.code)} (column {exc.offset + 1})",
                         source, exc.lineno) from None
    except UnicodeEncodeError as exc:  # a lone surrogate (only the library can pass one)
        raise ParseError(f"invalid XML: character {exc.object[exc.start]!r} is no Unicode "
                         "character", source) from None
    return builder.close(), lines


#: Colours every webpbn file may use without declaring them, with their usual chars.
_PREDEFINED = {"white": ((255, 255, 255), "."), "black": ((0, 0, 0), "X")}


def _colours(puzzle: ET.Element, lines: Lines, source: str | None
             ) -> tuple[PaletteBuilder, str | None, dict[str, str]]:
    """The puzzle's colours, the name of the colour of a plain <count> (None when there is
    none: every count names its colour), and each colour's char in the goal image.

    ``defaultcolor`` is the colour of a <count> without one (black unless said otherwise) and
    ``backgroundcolor`` the empty cells' (white); some writers put the background in
    ``defaultcolor`` and colour every count, so then a lone other colour is the default.
    """
    background = puzzle.get("backgroundcolor", "white")
    default: str | None = puzzle.get("defaultcolor", "black")
    colours = PaletteBuilder(source)
    chars: dict[str, str] = {}
    declared: list[tuple[str, tuple[int, int, int], str | None, int]] = []
    for c in puzzle.findall("color"):
        line = lines.get(c)
        name = (c.get("name") or "").strip()
        if not name:
            raise ParseError("<color> needs a name", source, line)
        if any(name == d[0] for d in declared):
            raise ParseError(f"colour {name!r} is declared twice", source, line)
        code = (c.text or "").strip()
        rgb = (rgb_of(code, source, line, hex_only=True) if code
               else _PREDEFINED.get(name, (rgb_of(name), ""))[0])
        char = c.get("char") or _PREDEFINED.get(name, ((0, 0, 0), name[:1]))[1]
        declared.append((name, rgb, char, line or 0))
    names = [d[0] for d in declared]
    if background not in names and background in _PREDEFINED:
        declared.append((background, *_PREDEFINED[background], 0))
        names.append(background)
    if background not in names:
        raise ParseError(f"no <color> declares the background colour {background!r}", source,
                         lines.get(puzzle))
    others = [n for n in names if n != background]
    if default == background:
        default = others[0] if len(others) == 1 else None
    for name, rgb, glyph, at in declared:
        if glyph:
            chars[name] = glyph
        if name == background:
            colours.set_background(name, rgb)
        else:
            colours.add(name, name, rgb, glyph, at or None)
    if default is not None and default not in names and default not in _PREDEFINED:
        raise ParseError(f"no <color> declares the default colour {default!r}", source,
                         lines.get(puzzle))
    return colours, default, chars


def _clues(puzzle: ET.Element, kind: str, default: str | None, colours: PaletteBuilder,
           chars: dict[str, str], lines: Lines, where: str, source: str | None
           ) -> tuple[list[list[tuple[int, int]]], list[int | None]]:
    """The clues of one kind; a predefined colour (black) joins the palette when first used."""
    found = [c for c in puzzle.findall("clues") if c.get("type") == kind]
    if len(found) != 1:
        raise ParseError(f'{where}: expected one <clues type="{kind}">, found {len(found)}',
                         source)
    out, at = [], []
    for i, line in enumerate(found[0].findall("line")):
        clue = []
        for count in line.findall("count"):
            here = f"{where}, {kind} line {i + 1}"
            name = count.get("color") or default
            if name is None:
                raise ParseError(f"{here}: a <count> without a color, and the default colour "
                                 "is the background", source, lines.get(count))
            n = parse_int(count.text or "", f"{here}: a <count>", source, lines.get(count))
            if name not in colours.keys and name in _PREDEFINED:
                rgb, chars[name] = _PREDEFINED[name]
                colours.add(name, name, rgb, chars[name])
            clue.append((n, colours.index(name, lines.get(count))))
        out.append(clue)
        at.append(lines.get(line))
    return out, at


def _goal(puzzle: ET.Element, width: int, height: int, chars: dict[str, str],
          lines: Lines, where: str, source: str | None) -> list[str] | None:
    """The goal image's rows of file chars: between '|' marks, whitespace ignored, '[X]' for
    one cell."""
    for sol in puzzle.findall("solution"):
        if sol.get("type", "goal") != "goal":
            continue
        image = re.sub(r"\s+", "", sol.findtext("image") or "")
        image = re.sub(r"\[(.)\]", r"\1", image)
        if "[" in image:
            raise ParseError(f"{where}: the goal image has a cell with several colours", source,
                             lines.get(sol))
        return re.findall(r"\|([^|]*)\|", image)
    return None


def _symbol_goal(rows: list[str], puzzle: ColourPuzzle, chars: dict[str, str],
                 source: str) -> Grid:
    """A colour goal as palette symbols, checking its shape and chars."""
    if len(rows) != puzzle.height:
        raise ParseError(f"goal has {len(rows)} rows, the puzzle has {puzzle.height}", source)
    table = {chars.get(c.name, c.symbol): c.symbol for c in puzzle.palette}
    if len(table) < len(puzzle.palette):
        raise ParseError("two colours share a char, so the goal image is ambiguous", source)
    out = []
    for r, row in enumerate(rows):
        if len(row) != puzzle.width:
            raise ParseError(f"goal row {r + 1} has {len(row)} cells, the puzzle has "
                             f"{puzzle.width} columns", source)
        try:
            out.append("".join(table[c] for c in row))
        except KeyError as exc:
            raise ParseError(f"goal row {r + 1}: unexpected character {exc.args[0]!r}",
                             source) from None
    return tuple(out)


def entries(text: str, source: str | None = None, limits: bool = True) -> Iterator[Entry]:
    """Every puzzle of a puzzleset (or a lone <puzzle>), with its goal."""
    root, lines = _load(text, source)
    puzzles = [root] if root.tag == "puzzle" else root.findall("puzzle")
    if root.tag not in ("puzzle", "puzzleset"):
        raise ParseError(f"expected <puzzleset> or <puzzle>, found <{root.tag}>", source)
    if not puzzles:
        raise ParseError("no <puzzle> element", source)
    for index, p in enumerate(puzzles):
        where = f"puzzle {index + 1}"
        if p.get("type", "grid") != "grid":
            raise ParseError(f"{where}: only type=\"grid\" puzzles are supported", source,
                             lines.get(p))
        here = f"{source or '<input>'} ({where})"
        colours, default, chars = _colours(p, lines, here)
        rows, row_lines = _clues(p, "rows", default, colours, chars, lines, where, source)
        cols, col_lines = _clues(p, "columns", default, colours, chars, lines, where, source)
        title = (p.findtext("title") or "").strip() or None
        puzzle = colour_result(rows, cols, colours, row_lines, col_lines, title, limits)
        image = _goal(p, puzzle.width, puzzle.height, chars, lines, where, source)
        goal: Grid | None = None
        if image is not None and isinstance(puzzle, ColourPuzzle):
            goal = _symbol_goal(image, puzzle, chars, f"{here} goal")
        elif image is not None:
            ink = chars.get(colours.names[0], "X") if colours.names else "X"
            goal = make_goal(image, puzzle.width, puzzle.height, ink,
                             chars.get(colours.background.name, "."), f"{here} goal", None)
        label = title or (p.findtext("id") or "").strip() or default_label(source)
        yield Entry(source or "<input>", index, label, puzzle, goal)


def parse(text: str, source: str | None = None, limits: bool = True) -> AnyPuzzle:
    """Read the one puzzle of a webpbn XML file."""
    return only_entry(entries(text, source, limits), source).puzzle


def dump(puzzle: AnyPuzzle, goal: Grid | None = None) -> str:
    """Write a puzzle (and goal) as webpbn XML; a colour puzzle's chars are its symbols."""
    if isinstance(puzzle, ColourPuzzle):
        return _dump_colour(puzzle, goal)
    out = ['<?xml version="1.0"?>', "<puzzleset>",
           '<puzzle type="grid" defaultcolor="black" backgroundcolor="white">']
    if puzzle.title:
        out.append(f"<title>{_text(puzzle.title)}</title>")
    out += ['<color name="white" char=".">fff</color>', '<color name="black" char="X">000</color>']
    for kind, clues in (("columns", puzzle.cols), ("rows", puzzle.rows)):
        out.append(f'<clues type="{kind}">')
        out += ["<line>" + "".join(f"<count>{n}</count>" for n in c) + "</line>" for c in clues]
        out.append("</clues>")
    if goal is not None:
        out.append('<solution type="goal">\n<image>')
        out += ["|" + r.replace("#", "X") + "|" for r in goal]
        out.append("</image>\n</solution>")
    out += ["</puzzle>", "</puzzleset>"]
    return "\n".join(out) + "\n"


def _dump_colour(puzzle: ColourPuzzle, goal: Grid | None) -> str:
    pal = puzzle.palette
    bad = [c.symbol for c in pal if c.symbol in "|[]"]
    if bad:
        raise GridsolveError(f"webpbn XML cannot use {bad[0]!r} as a colour's char "
                             "(it marks the goal image)")
    out = ['<?xml version="1.0"?>', "<puzzleset>",
           f"<puzzle type=\"grid\" defaultcolor={quoteattr(pal[1].name)} "
           f"backgroundcolor={quoteattr(pal[0].name)}>"]
    if puzzle.title:
        out.append(f"<title>{_text(puzzle.title)}</title>")
    out += [f"<color name={quoteattr(_xml_chars(c.name))} char={quoteattr(c.symbol)}>{c.hex[1:]}</color>"
            for c in pal]

    def count(n: int, c: int) -> str:
        colour = "" if c == 1 else f" color={quoteattr(pal[c].name)}"
        return f"<count{colour}>{n}</count>"
    for kind, clues in (("columns", puzzle.cols), ("rows", puzzle.rows)):
        out.append(f'<clues type="{kind}">')
        out += ["<line>" + "".join(count(n, c) for n, c in clue) + "</line>" for clue in clues]
        out.append("</clues>")
    if goal is not None:
        out.append('<solution type="goal">\n<image>')
        out += [f"|{_text(r)}|" for r in goal]
        out.append("</image>\n</solution>")
    out += ["</puzzle>", "</puzzleset>"]
    return "\n".join(out) + "\n"
