"""Colour puzzles in files: the shared corpus, small drawings of our own, errors, round trips."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolve.errors import GridsolveError, ParseError
from gridsolve.nonogram.formats import (colour_formats, iter_entries, parse_entries,
                                        parse_puzzle, read_entry, write_puzzle)
from gridsolve.nonogram.formats._colours import NAMED, rgb_of
from gridsolve.nonogram.model import (Colour, ColourPuzzle, Grid, Puzzle, colour_clue_of,
                                      colour_puzzle_from_grid, columns_of, is_colour_solution)

OLSAK = "olsak-examples-via-pbnsolve"

# file -> (width x height, colours besides the background, colour names that must be there)
CORPUS = {
    f"{OLSAK}/acorn.g": ("50x35", 4, {"yellow", "orange", "brown", "red"}),
    f"{OLSAK}/alladin.g": ("30x23", 7, {"black", "red", "pink", "black/orange"}),
    f"{OLSAK}/bird2.g": ("40x30", 2, {"blue", "black"}),
    f"{OLSAK}/dvekocky.g": ("71x35", 2, {"black"}),
    f"{OLSAK}/oko.g": ("40x30", 2, {"blue", "black"}),
    f"{OLSAK}/raketa.g": ("20x35", 2, {"red", "black"}),
    f"{OLSAK}/rose.g": ("39x28", 7, {"#FF00FF"}),
    f"{OLSAK}/ruze.g": ("39x28", 7, {"#F6008B"}),
    f"{OLSAK}/viceres.g": ("4x4", 2, {"blue", "black"}),
    "pynogram-examples/uk.txt": ("31x15", 2, {"blue", "red"}),
    "pynogram-examples/apples.txt": ("15x15", 3, {"red", "black"}),
    "nonogrid-examples/UK.toml": ("31x15", 2, {"blue", "red"}),
}


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_colour_corpus_reads(puzzles_dir: Path, name: str) -> None:
    size, ncolours, names = CORPUS[name]
    puzzle = read_entry(str(puzzles_dir / name)).puzzle
    assert isinstance(puzzle, ColourPuzzle)
    assert (puzzle.size, len(puzzle.palette) - 1) == (size, ncolours)
    assert names <= {c.name for c in puzzle.palette}
    assert puzzle.palette[0].symbol == "."


def test_the_same_flag_in_pynogram_and_nonogrid(puzzles_dir: Path) -> None:
    ini = read_entry(str(puzzles_dir / "pynogram-examples/uk.txt")).puzzle
    toml = read_entry(str(puzzles_dir / "nonogrid-examples/UK.toml")).puzzle
    assert ini == toml


def test_olsak_glyphs_and_colours(puzzles_dir: Path) -> None:
    """raketa.g: 'r:&  red', '1:*  black' (numbers without a letter are black)."""
    puzzle = read_entry(str(puzzles_dir / OLSAK / "raketa.g")).puzzle
    assert isinstance(puzzle, ColourPuzzle)
    assert [(c.name, c.symbol, c.rgb) for c in puzzle.palette] == [
        ("white", ".", (255, 255, 255)), ("red", "&", (255, 0, 0)), ("black", "*", (0, 0, 0))]
    text = (puzzles_dir / OLSAK / "raketa.g").read_text()
    plain = next(s for s in text.splitlines()[5:] if s.strip() and not s.startswith(":"))
    first = puzzle.rows[0]
    assert len(first) == len(plain.split())
    assert all((c == 2) == tok.isdigit() for (_, c), tok in zip(first, plain.split()))


def test_dvekocky_glyph_clash_gets_a_letter(puzzles_dir: Path) -> None:
    """'1:.  black' wants the background's '.', so black gets a stable spare letter."""
    puzzle = read_entry(str(puzzles_dir / OLSAK / "dvekocky.g")).puzzle
    assert isinstance(puzzle, ColourPuzzle)
    assert [c.symbol for c in puzzle.palette] == [".", "@", "a"]


@pytest.mark.parametrize("name", ["creature.g", "tkocka.g", "vcely.g"])
def test_triddlers_are_refused(puzzles_dir: Path, name: str) -> None:
    with pytest.raises(ParseError, match="hexagonal triddlers are not supported") as info:
        read_entry(str(puzzles_dir / OLSAK / name))
    assert info.value.line is not None


@pytest.mark.parametrize("name", ["brontik.g", "noty.g"])
def test_glued_triangles_are_refused(puzzles_dir: Path, name: str) -> None:
    with pytest.raises(ParseError, match="glued triangles") as info:
        read_entry(str(puzzles_dir / OLSAK / name))
    assert info.value.line is not None


# --- webpbn XML drawings of our own --------------------------------------------------------

TULIP = (".rrr.", ".rrr.", "..g..", "g.g.g", ".ggg.")
PALETTE = (Colour("white", (255, 255, 255), "."), Colour("red", (220, 20, 60), "r"),
           Colour("green", (34, 139, 34), "g"))


def webpbn_text(grid: Grid, palette: tuple[Colour, ...]) -> str:
    """A webpbn file written by hand (not by our writer): counts named, 3-digit colours."""
    def line(cells: str) -> str:
        return "<line>" + "".join(
            f'<count color="{palette[c].name}">{n}</count>'
            for n, c in colour_clue_of(cells, palette)) + "</line>"
    return "\n".join([
        '<?xml version="1.0"?>', "<puzzleset>", '<puzzle type="grid" defaultcolor="black">',
        "<title>Tulip</title>",
        '<color name="white" char=".">fff</color>',
        '<color name="red" char="r">D14</color>',
        '<color name="green" char="g">228B22</color>',
        '<clues type="columns">', *map(line, columns_of(grid)), "</clues>",
        '<clues type="rows">', *map(line, grid), "</clues>",
        '<solution type="goal"><image>', *[f"|{r}|" for r in grid], "</image></solution>",
        "</puzzle>", "</puzzleset>", ""])


def test_webpbn_colour_sample_with_goal() -> None:
    (entry,) = parse_entries(webpbn_text(TULIP, PALETTE), source="tulip.xml")
    puzzle = entry.puzzle
    assert isinstance(puzzle, ColourPuzzle)
    assert [(c.name, c.symbol, c.hex) for c in puzzle.palette] == [
        ("white", ".", "#ffffff"), ("red", "r", "#dd1144"), ("green", "g", "#228b22")]
    assert puzzle.rows[3] == ((1, 2), (1, 2), (1, 2))
    assert entry.goal == TULIP and is_colour_solution(puzzle, TULIP)
    assert entry.label == "Tulip"


def test_webpbn_plain_counts_take_the_default_colour() -> None:
    text = """<puzzleset><puzzle defaultcolor="blue" backgroundcolor="paper">
<color name="paper" char="-">ffffff</color>
<color name="blue" char="b">00f</color>
<color name="gold" char="o">fc0</color>
<clues type="rows"><line><count>1</count><count color="gold">1</count></line></clues>
<clues type="columns"><line><count>1</count></line><line><count color="gold">1</count></line>
</clues>
<solution><image>|bo|</image></solution>
</puzzle></puzzleset>"""
    (entry,) = parse_entries(text, source="two.xml")
    assert isinstance(entry.puzzle, ColourPuzzle)
    assert entry.puzzle.palette[0].name == "paper"
    assert entry.puzzle.rows == (((1, 1), (1, 2)),)
    assert entry.goal == ("bo",)


def test_webpbn_black_and_white_stays_puzzle() -> None:
    text = webpbn_text(("#.", "##"), (PALETTE[0], Colour("black", (0, 0, 0), "#")))
    text = text.replace('<color name="red" char="r">D14</color>', "")
    text = text.replace('<color name="green" char="g">228B22</color>', "")
    (entry,) = parse_entries(text.replace("|#.|", "|X.|").replace("|##|", "|XX|"), source="b.xml")
    assert type(entry.puzzle) is Puzzle
    assert entry.puzzle.rows == ((1,), (2,)) and entry.goal == ("#.", "##")


BAD_COLOUR = [
    ("webpbn", '<puzzleset><puzzle>\n<color name="red" char="r">f00</color>\n'
     '<color name="red" char="q">f00</color>\n</puzzle></puzzleset>', 3, "declared twice"),
    ("webpbn", '<puzzleset><puzzle>\n<color name="red" char="r">f0</color>\n'
     "</puzzle></puzzleset>", 2, "bad colour code 'f0'"),
    ("webpbn", '<puzzleset><puzzle>\n<color name="red">ff0000</color>\n'
     '<clues type="rows"><line><count color="red">1</count></line></clues>\n'
     '<clues type="columns"><line>\n<count color="blue">1</count></line></clues>\n'
     "</puzzle></puzzleset>", 5, "unknown colour 'blue'"),
    ("webpbn", '<puzzleset><puzzle>\n<color name="red">ff0000</color>\n'
     '<clues type="rows">\n<line><count color="red">3</count></line></clues>\n'
     '<clues type="columns"><line><count color="red">3</count></line></clues>\n'
     "</puzzle></puzzleset>", 4, "needs 3 cells"),
    ("g", "#d\n r:r red\n r:q rose\n:\n1r\n:\n1r\n", 3, "declared twice"),
    ("g", "#d\n r:r #ff00\n:\n1r\n:\n1r\n", 2, "bad colour code '#ff00'"),
    ("g", "#d\n r:r red\n b:b blue\n:\n1r 1b\n:\n1r\n1\n", 8, "no default colour"),
    ("g", "#d\n r:r red\n nonsense\n:\n1r\n:\n1r\n", 3, "not a colour declaration"),
    ("g", "#d\n r:r red\n 7:r red\n:\n1r\n:\n1r\n", 3, "cannot name a colour"),
    ("pynogram", "[colors]\nb = (blue) *\nr = (300, 0, 0) %\n[clues]\nrows = 1b\ncolumns = 1b\n",
     3, "bad RGB triple"),
    ("pynogram", "[colors]\nb = blue *\n[clues]\nrows = 1b\ncolumns = 1b\n", 2,
     "expected 'name = (colour) glyph'"),
    ("pynogram", "[colors]\ndefs = [\n 'b = (blue) *',\n 'b = (navy) %',\n]\n"
     "[clues]\nrows = 1b\ncolumns = 1b\n", 4, "declared twice"),
    ("pynogram", "[colors]\nb = (blue) *\nr = (red)\n[clues]\nrows = 2b 1r\n"
     "columns = 1b, 1b, 1b\n", None, "colour 'blue': row clues paint 2 cells but column "
     "clues paint 3"),
]


@pytest.mark.parametrize(("fmt", "text", "line", "words"), BAD_COLOUR)
def test_malformed_colour_input(fmt: str, text: str, line: int | None, words: str) -> None:
    with pytest.raises(ParseError) as info:
        list(parse_entries(text, fmt, "bad.file"))
    assert words in str(info.value)
    assert info.value.line == line
    assert str(info.value).startswith("bad.file")


def test_more_than_31_colours_is_refused() -> None:
    defs = "\n".join(f"k{i} = ({7 * i}, 0, 0)" for i in range(33))
    with pytest.raises(ParseError, match="more than 31 colours") as info:
        parse_puzzle(f"[colors]\n{defs}\n[clues]\nrows = 1k0\ncolumns = 1k0\n", "pynogram", "x")
    assert info.value.line == 2 + 31


def test_pynogram_colour_keys_keep_their_case() -> None:
    text = ("[colors]\nb = (blue) *\nB = (navy) %\n[clues]\nrows = 1b 1B\n"
            "columns = 1b, 1B\n")
    puzzle = parse_puzzle(text, "pynogram", "case.txt")
    assert isinstance(puzzle, ColourPuzzle)
    assert [(c.name, c.symbol) for c in puzzle.palette[1:]] == [("blue", "*"), ("navy", "%")]
    assert puzzle.rows == (((1, 1), (1, 2)),)


def test_colour_names() -> None:
    assert rgb_of("Red") == (255, 0, 0) and rgb_of("cervena") == (255, 0, 0)
    assert rgb_of("#0a0") == (0, 170, 0) and rgb_of("88CC44") == (0x88, 0xCC, 0x44)
    assert rgb_of("0, 204, 0") == (0, 204, 0)
    assert rgb_of("black/orange") == (127, 82, 0)
    made_up = rgb_of("no-such-colour")
    assert made_up == rgb_of("no-such-colour") and made_up not in NAMED.values()


# --- round trips ---------------------------------------------------------------------------

SYMBOLS = "abcdefghijklmnopqrstuvwxyz*%&@+"


@st.composite
def colour_grids(draw: st.DrawFn) -> tuple[Grid, tuple[Colour, ...]]:
    ncolours = draw(st.integers(1, 6))
    symbols = draw(st.lists(st.sampled_from(SYMBOLS), min_size=ncolours, max_size=ncolours,
                            unique=True))
    palette = (Colour("white", (255, 255, 255), "."), *[
        Colour(f"colour {i + 1}", (draw(st.integers(0, 255)), 17 * i, 255 - 17 * i), s)
        for i, s in enumerate(symbols)])
    height, width = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    row = st.text(alphabet="." + "".join(symbols), min_size=width, max_size=width)
    return tuple(draw(st.lists(row, min_size=height, max_size=height))), palette


@pytest.mark.parametrize("fmt", ["webpbn", "json"])
@settings(max_examples=60, deadline=None)
@given(case=colour_grids(), title=st.none() | st.text("ab <&>'\"", min_size=1, max_size=8))
def test_colour_round_trip(fmt: str, case: tuple[Grid, tuple[Colour, ...]],
                           title: str | None) -> None:
    grid, palette = case
    puzzle = colour_puzzle_from_grid(grid, palette, title=title.strip() or None if title else None)
    (entry,) = parse_entries(write_puzzle(puzzle, fmt, grid), fmt, "rt")
    assert entry.puzzle == puzzle and entry.goal == grid
    assert isinstance(entry.puzzle, ColourPuzzle)
    assert entry.puzzle.title == puzzle.title
    assert is_colour_solution(entry.puzzle, entry.goal)


def test_colour_formats_are_webpbn_and_json() -> None:
    assert sorted(colour_formats()) == ["json", "webpbn"]


@pytest.mark.parametrize("fmt", ["text", "non", "mk", "g", "cwd", "glpk", "keen", "tournament"])
def test_black_and_white_writers_refuse_colour(fmt: str) -> None:
    puzzle = colour_puzzle_from_grid(TULIP, PALETTE)
    with pytest.raises(GridsolveError, match=f"the {fmt} format holds black-and-white puzzles "
                                             "only"):
        write_puzzle(puzzle, fmt)


def test_json_colour_schema_errors() -> None:
    head = '{"format": "gridsolve-nonogram", "version": 1, '
    cases = [
        ('"palette": [{"name": "white", "rgb": "#ffffff", "symbol": "."}], "rows": [], '
         '"cols": []}', "at least one colour"),
        ('"palette": [{"name": "white", "rgb": "#fff", "symbol": "."}, '
         '{"name": "red", "rgb": "#ff0000", "symbol": "r"}], "rows": [], "cols": []}',
         '"rgb" must be "#rrggbb"'),
        ('"palette": [{"name": "white", "rgb": "#ffffff", "symbol": "."}, '
         '{"name": "red", "rgb": "#ff0000", "symbol": "r"}], "rows": [[[1, 2]]], '
         '"cols": [[[1, 1]]]}', "colour 2 is not in the palette"),
        ('"palette": [{"name": "white", "rgb": "#ffffff", "symbol": "."}, '
         '{"name": "red", "rgb": "#ff0000", "symbol": "?"}], "rows": [], "cols": []}',
         "one character of its own"),
        ('"rows": [[[1, 1]]], "cols": [[[1, 1]]]}', 'need a "palette"'),
    ]
    for body, words in cases:
        with pytest.raises(ParseError, match=words):
            parse_puzzle(head + body, "json", "c.json")


def test_colour_goal_must_use_palette_symbols() -> None:
    text = write_puzzle(colour_puzzle_from_grid(TULIP, PALETTE), "json", TULIP)
    with pytest.raises(ParseError, match="unexpected character 'x'"):
        list(parse_entries(text.replace('".rrr."', '".rxr."', 1), "json", "t.json"))


def test_convert_cli_writes_colour_and_refuses_bw_targets(tmp_path: Path) -> None:
    from gridsolve.cli import main
    src = tmp_path / "tulip.xml"
    src.write_text(webpbn_text(TULIP, PALETTE))
    assert main(["nonogram", "convert", str(src), str(tmp_path / "t.json")]) == 0
    entry = next(iter_entries(str(tmp_path / "t.json")))
    assert entry.goal == TULIP and isinstance(entry.puzzle, ColourPuzzle)
    assert main(["nonogram", "convert", str(src), str(tmp_path / "t.non")]) == 2
    assert not (tmp_path / "t.non").exists()
