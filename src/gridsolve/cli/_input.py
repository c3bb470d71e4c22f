"""The one puzzle a command works on: FILE, or one puzzle of a multi-puzzle file picked with
``--index N`` or ``FILE#N`` (from 1); a file of several puzzles without either says how many
it holds and how to pick one, on one line (exit 2, as every input error)."""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from gridsolve.cli._args import positive_int
from gridsolve.errors import GridsolveError, ParseError

if TYPE_CHECKING:
    from gridsolve.nonogram.formats import Entry

__all__ = ["add_index", "split_index", "pick", "read_one"]

#: ``FILE#N``: a file name, '#', and the puzzle's number (from 1)
_NUMBERED = re.compile(r"(.+)#([0-9]{1,9})")


def add_index(p: argparse.ArgumentParser) -> None:
    """The ``--index N`` option of a command that reads one puzzle."""
    p.add_argument("--index", type=positive_int, default=None, metavar="N",
                   help="the N-th puzzle (from 1) of a multi-puzzle file (also: FILE#N)")


def split_index(path: str) -> tuple[str, int | None]:
    """``FILE#N`` -> (FILE, N), unless a file is named ``FILE#N`` itself; else (path, None)."""
    m = _NUMBERED.fullmatch(path)
    if m is None or os.path.exists(path) or int(m.group(2)) < 1:
        return path, None
    return m.group(1), int(m.group(2))


def pick(entries: Iterable[Entry], index: int | None, source: str) -> Entry:
    """The ``index``-th entry (from 1), or the only one: an error naming how many the file
    holds otherwise. A puzzle with bad clues before the one picked is a plain ParseError, so
    that only the picked puzzle's ClueError reaches a command that reads its clues anyway."""
    from gridsolve.nonogram.formats import ClueError
    found: list[Entry] = []
    try:
        for entry in entries:
            found.append(entry)
            if index is not None and len(found) == index:
                return entry
    except ClueError as exc:
        if len(found) + 1 == (index or 1) and not (index is None and found):
            raise
        raise ParseError(exc.why, exc.source, exc.line) from None
    if not found:
        raise ParseError("no puzzle found", source)
    count = f"{len(found)} puzzle{'' if len(found) == 1 else 's'}"
    if index is not None:
        raise ParseError(f"--index {index}: the file holds {count}", source)
    if len(found) > 1:
        raise ParseError(f"the file holds {count}: pick one with --index N (1 to "
                         f"{len(found)}) or {source}#N", source)
    return found[0]


def read_one(args: argparse.Namespace) -> Entry:
    """The puzzle ``args.file`` names (``args.index`` or ``FILE#N`` picking one of several),
    read in ``args.format`` within the limits unless ``args.no_limits``."""
    from gridsolve.nonogram.formats import iter_entries
    path, numbered = split_index(args.file)
    index = getattr(args, "index", None)
    if numbered is not None and index is not None and numbered != index:
        raise GridsolveError(f"{args.file} and --index {index} name different puzzles: "
                             "give one of them")
    index = numbered if index is None else index
    source = "<stdin>" if path == "-" else path
    return pick(iter_entries(path, args.format, limits=not args.no_limits), index, source)
