"""Issue 21: every reader takes ASCII digits only and caps a number's length.

Before, '²' (which str.isdigit() accepts) was a ValueError traceback, fullwidth '１' and
Arabic-Indic '١' were read as clue numbers (a different puzzle, silently), and a 5,000-digit
number hit Python's int limit. Each is now one ParseError naming the file's line.
"""

from __future__ import annotations

import json

import pytest

from gridsolve.cli import main
from gridsolve.errors import ParseError
from gridsolve.nonogram.formats import parse_entries
from gridsolve.numbers import shown

#: The bad numbers: not ASCII digits (each passes str.isdigit or \d), and far too long.
BAD = {"superscript": "²", "fullwidth": "１", "arabic": "١", "long": "1" * 5000}

_XML = ('<puzzleset><puzzle>\n<clues type="columns"><line><count>1</count></line></clues>\n'
        '<clues type="rows"><line><count>{N}</count></line></clues>\n</puzzle></puzzleset>\n')
_GLPK = ("data;\nparam m := 2;\nparam n := 2;\nparam row : 1 :=\n1 1\n2 {N}\n;\n"
         "param col : 1 :=\n1 1\n2 1\n;\nend;\n")

#: (format, file name, text with {N} where the bad number goes, the line it is on)
CASES = [
    ("text", "p.txt", "1\n1 {N}\n--\n1\n1\n", 2),
    ("keen", "p.txt", "1\n{N}\n\n1\n1\n", 2),
    ("non", "p.non", "width 2\nheight 2\nrows\n1\n{N}\ncolumns\n1\n1\n", 5),
    ("non", "p.non", "width {N}\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n", 1),
    ("cwd", "p.cwd", "2\n2\n1\n{N}\n\n1\n1\n", 4),
    ("cwd", "p.cwd", "2\n{N}\n1\n1\n\n1\n1\n", 2),
    ("mk", "p.mk", "2 2\n1\n{N}\n#\n1\n1\n", 3),
    ("mk", "p.mk", "{N} 2\n1\n1\n#\n1\n1\n", 1),
    ("g", "p.g", "x\n: rows\n1\n{N}\n: columns\n1\n1\n", 4),
    ("glpk", "p.dat", _GLPK, 6),
    ("glpk", "p.dat", _GLPK.replace("n := 2", "n := {N}").replace("2 {N}", "2 1"), 3),
    ("webpbn", "p.xml", _XML, 3),
    ("pynogram", "p.ini", "[clues]\nrows = 1, {N}\ncolumns = 1, 1\n", 2),
    ("spoj", "p.in", "1\n2 2\n1 0\n{N} 0\n1 0\n1 0\n", 4),
    ("tournament", "p.txt", "$1\n1\n{N}\n1\n1\n", 3),
    ("nin", "p.nin", "2 2\n1\n{N}\n1\n1\n", 3),
    ("nin", "p.nin", "{N} 2\n1\n1\n1\n1\n", 1),
    ("faase", "p.faase", "rows\n1\n{N}\ncolumns\n1\n1\n", 3),
    ("faase", "p.faase", "width {N}\nrows\n1\n1\ncolumns\n1\n1\n", 1),
    ("ish", "p.ish", "# c\n1\n1,{N}\n\n1\n1\n", 3),
    ("makhorin", "p.makhorin", "* c\n1\n{N}\n&\n1\n1\n", 3),
    ("syro", "p.syro", "1 0\n{N} 0\n#\n1 0\n1 0\n#\n", 2),
]


def _parse(fmt: str, name: str, text: str) -> list[object]:
    return list(parse_entries(text, fmt, name))


@pytest.mark.parametrize("kind", BAD)
@pytest.mark.parametrize("fmt,name,template,line", CASES)
def test_bad_number_is_one_line_at_its_line(fmt: str, name: str, template: str, line: int,
                                            kind: str) -> None:
    token = BAD[kind]
    with pytest.raises(ParseError) as err:
        _parse(fmt, name, template.replace("{N}", token))
    message = str(err.value)
    assert err.value.line == line, message
    assert message.startswith(f"{name}:{line}: ") and "\n" not in message
    assert shown(token)[1:-1] in message


@pytest.mark.parametrize("kind", BAD)
def test_bad_colour_triple(kind: str) -> None:
    text = "[colors]\nr = (0,{N},0) r\n[clues]\nrows = 1r\ncolumns = 1r\n"
    with pytest.raises(ParseError, match="bad RGB triple") as err:
        _parse("pynogram", "p.ini", text.replace("{N}", BAD[kind]))
    assert err.value.line == 2


@pytest.mark.parametrize("kind", BAD)
def test_puzzlekit_problem(kind: str) -> None:
    doc = {"data": {"a_2x2": {"problem": f"2 2\n1\n{BAD[kind]}\n1\n1"}}}
    with pytest.raises(ParseError) as err:
        _parse("puzzlekit", "p.json", json.dumps(doc, ensure_ascii=False))
    assert err.value.line == 1 and str(err.value).startswith("p.json:1: [a_2x2] problem line 3: ")


@pytest.mark.parametrize("digits", [21, 5000, 100_000])
def test_json_long_clue(digits: int) -> None:
    text = ('{"format": "gridsolve-nonogram", "version": 1,\n"rows": [[1], [' + "9" * digits
            + ']],\n"cols": [[1], [1]]}')
    with pytest.raises(ParseError, match="more than 20 digits") as err:
        _parse("json", "p.json", text)
    assert err.value.line == 2


def test_json_deep_nesting() -> None:
    with pytest.raises(ParseError, match="nested too deeply"):
        _parse("json", "p.json", '{"format": "gridsolve-nonogram", "rows": '
               + "[" * 200_000 + "]" * 200_000 + "}")


@pytest.mark.parametrize("kind", BAD)
def test_cli_one_line_exit_2(kind: str, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    for fmt, name, template, line in CASES:
        path = tmp_path / name
        path.write_text(template.replace("{N}", BAD[kind]), encoding="utf-8")
        assert main(["nonogram", "solve", str(path)]) == 2, (fmt, template)
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1, (fmt, err)
        assert err.startswith(f"gridsolve: error: {path}:{line}: "), (fmt, err)
