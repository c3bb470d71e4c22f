"""Issue 21: every reader, given hostile text, reads a valid puzzle or raises one GridsolveError
of one line; nothing else (a ValueError, a RecursionError, an IndexError) ever escapes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridsolve.errors import GridsolveError
from gridsolve.nonogram.formats import FORMATS, parse_entries
from gridsolve.nonogram.model import ColourPuzzle, Puzzle
from tests.fuzz import FAST, SLOW, TEXT, one_line

#: Every format by name, and content detection; with a file name of each format's extension.
READERS = ["auto", *sorted(FORMATS)]
NAMES = sorted({f"p{ext}" for mod in FORMATS.values() for ext in mod.EXTENSIONS} | {"p"})


def reads_or_refuses(text: str, fmt: str, name: str) -> None:
    """A valid puzzle for each entry, or one GridsolveError of one line."""
    try:
        entries = list(parse_entries(text, fmt, name))
    except GridsolveError as exc:
        assert one_line(str(exc)), repr(str(exc))
        return
    for entry in entries:
        assert isinstance(entry.puzzle, (Puzzle, ColourPuzzle))
        assert entry.puzzle.width >= 1 and entry.puzzle.height >= 1


@FAST
@given(text=TEXT, fmt=st.sampled_from(READERS), name=st.sampled_from(NAMES))
def test_readers_never_crash(text: str, fmt: str, name: str) -> None:
    reads_or_refuses(text, fmt, name)


@pytest.mark.slow
@SLOW
@given(text=TEXT, fmt=st.sampled_from(READERS), name=st.sampled_from(NAMES))
def test_readers_never_crash_long(text: str, fmt: str, name: str) -> None:
    reads_or_refuses(text, fmt, name)
