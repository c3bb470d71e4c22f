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

Spec: webpbn.com/pbn_fmt.html. Hostile XML is refused: internal DTD subsets and entity
declarations are rejected before parsing, and the expat parser never fetches external DTDs.
More than one non-background colour gives a clear "not supported yet" error.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from xml.sax.saxutils import escape

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import (COLOUR_UNSUPPORTED, Entry, build_puzzle,
                                                default_label, make_goal, only_entry, parse_int)
from gridsolve.nonogram.model import Grid, Puzzle

NAME = "webpbn"
EXTENSIONS = (".xml", ".pbn")
GOAL = True


def detect(text: str) -> bool:
    """Does it start like XML with a <puzzleset> or <puzzle> element?"""
    head = text[:4096].lstrip("\ufeff \t\r\n")
    return head.startswith("<") and bool(re.search(r"<puzzle(set)?[\s>]", text[:65536]))


def _load(text: str, source: str | None) -> ET.Element:
    m = re.search(r"<!ENTITY|<!DOCTYPE[^>\[]*\[", text)
    if m:
        raise ParseError("XML with an internal DTD or entity declarations is refused",
                         source, text[:m.start()].count("\n") + 1)
    try:
        return ET.fromstring(text)
    except ET.ParseError as exc:
        line, col = exc.position
        raise ParseError(f"invalid XML: {str(exc).split(':')[0]} (column {col + 1})",
                         source, line) from None


def _colours(puzzle: ET.Element, where: str, source: str | None) -> tuple[str, str, str, str]:
    """(background name, its char, ink name, its char) of a black-and-white puzzle.

    ``defaultcolor`` is the colour of a <count> without one (black unless said otherwise) and
    ``backgroundcolor`` the empty cells' (white); some writers put the background in
    ``defaultcolor`` and colour every count, so then the one other colour is the ink.
    """
    background = puzzle.get("backgroundcolor", "white")
    ink = puzzle.get("defaultcolor", "black")
    chars = {"white": ".", "black": "X"}
    declared = []
    for c in puzzle.findall("color"):
        name = c.get("name")
        if not name:
            raise ParseError(f"{where}: <color> needs a name", source)
        declared.append(name)
        chars[name] = c.get("char", chars.get(name, name[:1]))
    others = [n for n in dict.fromkeys(declared) if n != background]
    if ink == background and len(others) == 1:
        ink = others[0]
    extra = [n for n in others if n != ink]
    if extra:
        raise ParseError(f"{where}: {COLOUR_UNSUPPORTED} (colours {', '.join([ink, *extra])})",
                         source)
    if ink not in chars:
        raise ParseError(f"{where}: no <color> declares the default colour {ink!r}", source)
    return background, chars.get(background, "."), ink, chars[ink]


def _clues(puzzle: ET.Element, kind: str, ink: str, where: str,
           source: str | None) -> list[list[int]]:
    found = [c for c in puzzle.findall("clues") if c.get("type") == kind]
    if len(found) != 1:
        raise ParseError(f'{where}: expected one <clues type="{kind}">, found {len(found)}',
                         source)
    out = []
    for i, line in enumerate(found[0].findall("line")):
        clue = []
        for count in line.findall("count"):
            here = f"{where}, {kind} line {i + 1}"
            if count.get("color", ink) != ink:
                raise ParseError(f"{here}: {COLOUR_UNSUPPORTED} (color {count.get('color')!r})",
                                 source)
            clue.append(parse_int(count.text or "", f"{here}: a <count>", source, None))
        out.append(clue)
    return out


def _goal(puzzle: ET.Element, width: int, height: int, blank: str, ink: str, where: str,
          source: str | None) -> Grid | None:
    """The goal image: rows between '|' marks, whitespace ignored, '[X]' for one cell."""
    for sol in puzzle.findall("solution"):
        if sol.get("type", "goal") != "goal":
            continue
        image = re.sub(r"\s+", "", sol.findtext("image") or "")
        image = re.sub(r"\[(.)\]", r"\1", image)
        if "[" in image:
            raise ParseError(f"{where}: the goal image has a cell with several colours", source)
        rows = re.findall(r"\|([^|]*)\|", image)
        return make_goal(rows, width, height, ink, blank, f"{source or '<input>'} ({where} goal)",
                         None)
    return None


def entries(text: str, source: str | None = None, limits: bool = True) -> Iterator[Entry]:
    """Every puzzle of a puzzleset (or a lone <puzzle>), with its goal."""
    root = _load(text, source)
    puzzles = [root] if root.tag == "puzzle" else root.findall("puzzle")
    if root.tag not in ("puzzle", "puzzleset"):
        raise ParseError(f"expected <puzzleset> or <puzzle>, found <{root.tag}>", source)
    if not puzzles:
        raise ParseError("no <puzzle> element", source)
    for index, p in enumerate(puzzles):
        where = f"puzzle {index + 1}"
        if p.get("type", "grid") != "grid":
            raise ParseError(f"{where}: only type=\"grid\" puzzles are supported", source)
        _, blank, ink_name, ink = _colours(p, where, source)
        rows = _clues(p, "rows", ink_name, where, source)
        cols = _clues(p, "columns", ink_name, where, source)
        title = (p.findtext("title") or "").strip() or None
        puzzle = build_puzzle(rows, cols, f"{source or '<input>'} ({where})", title=title,
                              limits=limits)
        goal = _goal(p, puzzle.width, puzzle.height, blank, ink, where, source)
        label = title or (p.findtext("id") or "").strip() or default_label(source)
        yield Entry(source or "<input>", index, label, puzzle, goal)


def parse(text: str, source: str | None = None, limits: bool = True) -> Puzzle:
    """Read the one puzzle of a webpbn XML file."""
    return only_entry(entries(text, source, limits), source).puzzle


def dump(puzzle: Puzzle, goal: Grid | None = None) -> str:
    """Write a puzzle (and goal) as webpbn XML."""
    out = ['<?xml version="1.0"?>', "<puzzleset>",
           '<puzzle type="grid" defaultcolor="black" backgroundcolor="white">']
    if puzzle.title:
        out.append(f"<title>{escape(puzzle.title)}</title>")
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
