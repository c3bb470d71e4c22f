"""Hostile text for the fuzz tests of issue 21: what every reader, the CLI and the web app
must turn into one line and exit 2 (or a JSON 4xx), never a traceback.

Two kinds of text: token soup (digits ASCII and not, separators, the keywords and brackets of
every format, odd characters) and valid files of every format with a few spans replaced by
such tokens, which get deeper into each reader. ``FAST`` runs in the fast suite (the same
examples every run); ``SLOW`` is the long random run (``-m slow``).
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from gridsolve.nonogram.formats import FORMATS, write_puzzle
from gridsolve.nonogram.model import WHITE, Colour, colour_puzzle_from_grid, puzzle_from_grid

FAST = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
#: For the entry points, where each example costs a whole command or request.
FAST_FEW = settings(FAST, max_examples=20)
SLOW = settings(max_examples=3000, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

#: Numbers a reader must refuse or read as ASCII: odd digits, signs, floats, huge ones.
NUMBERS = ["0", "1", "2", "3", "7", "10", "25", "999999999", "1000000000", "9" * 30,
           "9" * 5000, "-1", "+1", "1.5", "1e3", "0x1", "1_0", "²", "١", "１", "𝟗", "߂", "Ⅳ"]
#: Separators, brackets and keywords of the formats gridsolve reads.
SYNTAX = [" ", "  ", "\t", "\n", "\n\n", "\r\n", "\r", ",", ".", "#", "--", ":", ";", ":=",
          "=", "$1", "$", "[", "]", "{", "}", "(", ")", '"', "'", "<", ">", "/", "|", "x", "X",
          "r", "b", "width", "height", "rows", "columns", "goal", "title", "color", "====",
          "param", "row", "col", "m", "n", "data;", "end;", "/*", "*/", "[clues]", "[colors]",
          "rows = ", "columns = ", "defs = ", ": rows", "#d", "1:# black", "<puzzleset>",
          "<puzzle>", '<clues type="rows">', '<clues type="columns">', "<line>", "<count>",
          "</count>", "</line>", "</clues>", "</puzzle>", "</puzzleset>",
          '<color name="red" char="r">f00</color>', '<count color="red">', "<!ENTITY",
          '"format": "gridsolve-nonogram"', '"version": 1', '"rows": ', '"cols": ',
          '"palette": ', '"data": ', '"problem": ', "[[", "]]", "null", "true", "NaN"]
#: Characters that are not what they look like, or not text at all.
ODD = ["\ufeff", "\x00", "\x85", "\u2028", "\u00a0", "\u3000", "é", "🙂", "\x7f",
       "\x1b[31m", "\\", "&amp;", "&#0;"]

TOKEN = st.sampled_from(NUMBERS + SYNTAX + ODD) | st.text(max_size=3)


def soup(max_tokens: int = 60) -> st.SearchStrategy[str]:
    """Text of random tokens."""
    return st.lists(TOKEN, max_size=max_tokens).map("".join)


def _samples() -> list[str]:
    """A small valid puzzle in every writable format (colour too where it can be), and
    hand-written ones for the formats gridsolve only reads."""
    bw = puzzle_from_grid(("#.#", "###", ".#."))
    colour = colour_puzzle_from_grid(("rb", "r."), (WHITE, Colour("red", (255, 0, 0), "r"),
                                                    Colour("blue", (0, 0, 255), "b")))
    out = []
    for mod in FORMATS.values():
        if hasattr(mod, "dump"):
            out.append(write_puzzle(bw, mod.NAME))
            if getattr(mod, "COLOUR", False):
                out.append(write_puzzle(colour, mod.NAME))
    out += [
        "1\n3 3\n1 1 0\n3 0\n1 0\n1 0\n3 0\n1 1 0\n",  # spoj
        "[clues]\nrows = 1 1, 3, 1\ncolumns = 2, 2 1, 2\n",  # pynogram
        "[colors]\nr = (255, 0, 0) %\n[clues]\nrows = 1r 1, 1r\ncolumns = 2r, 1\n",
        '{"data": {"a_2x2": {"problem": "2 2\\n1\\n1\\n1\\n1", "solution": ""}}}',  # puzzlekit
        "x\n#d\n1:# black\nr:% red\n: rows\n1r 1\n1r\n: columns\n2r\n1\n: end\n",  # .g colour
    ]
    return out


SAMPLES = _samples()


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A valid file with one to four spans replaced by hostile tokens."""
    text = draw(st.sampled_from(SAMPLES))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 8)))
        text = text[:i] + "".join(draw(st.lists(TOKEN, max_size=3))) + text[j:]
    return text


#: Any hostile puzzle text.
TEXT = soup() | mutated()


def one_line(message: str) -> bool:
    """Is it one non-empty line (as a terminal or a JSON client shows it)?"""
    return bool(message.strip()) and not any(c in message for c in "\n\r")
