"""Colour generation (issue 55.3): every puzzle counted again by an independent method (the
SAT backend; brute force over the reference's arrangements on small grids), seeds repeat,
levels hold, pictures keep at most N colours and round-trip through the colour formats."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from gridsolve.cli import main
from gridsolve.errors import LimitReached
from gridsolve.nonogram.backends import analyse
from gridsolve.nonogram.formats import colour_formats, parse_puzzle, write_puzzle
from gridsolve.nonogram.generate_colour import (MAX_COLOURS, PALETTE, banded_grid,
                                                generate_colour, make_colour_unique,
                                                random_palette)
from gridsolve.nonogram.image import quantised_grid
from gridsolve.nonogram.model import (ColourPuzzle, Grid, colour_clue_of,
                                      colour_puzzle_from_grid, columns_of, is_colour_solution)
from gridsolve.nonogram.rate import rate
from gridsolve.nonogram.reference_colour import colour_arrangements

pytest.importorskip("pysat", reason="the SAT backend is the independent count")


def brute_force_count(puzzle: ColourPuzzle, limit: int = 3) -> int:
    """Solutions counted by trying every row arrangement (the plain-Python reference's),
    cut where a column's cells so far cannot start its clue; at most ``limit``."""
    rows = [list(colour_arrangements(clue, puzzle.width)) for clue in puzzle.rows]
    found = 0
    for grid in itertools.product(*rows):
        if all(_colour_clue(col) == clue for col, clue in zip(zip(*grid), puzzle.cols)):
            found += 1
            if found >= limit:
                break
    return found


def _colour_clue(line: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    prev = 0
    for c in line:
        if c and c == prev:
            out[-1] = (out[-1][0] + 1, c)
        elif c:
            out.append((1, c))
        prev = c
    return tuple(out)


def sat_status(puzzle: ColourPuzzle) -> str:
    """Unique, multiple or none, as the SAT backend counts to 2."""
    return analyse(puzzle, 2, method="sat").status


@pytest.mark.parametrize("width, height, colours, seed", [
    (5, 5, 2, 1), (6, 4, 3, 2), (4, 6, 4, 3), (5, 5, 6, 4), (1, 1, 2, 5), (6, 1, 3, 6),
])
def test_small_puzzles_have_one_solution_by_brute_force(width: int, height: int, colours: int,
                                                       seed: int) -> None:
    made = generate_colour(width, height, colours, seed=seed)
    assert (made.puzzle.width, made.puzzle.height) == (width, height)
    assert len(made.puzzle.palette) == colours + 1
    assert brute_force_count(made.puzzle) == 1
    assert is_colour_solution(made.puzzle, made.solution)


@pytest.mark.parametrize("size, colours, seed", [(10, 2, 1), (12, 3, 2), (15, 4, 3),
                                                 (12, 6, 4), (15, 8, 5)])
def test_generated_puzzles_are_unique_by_sat(size: int, colours: int, seed: int) -> None:
    made = generate_colour(size, size, colours, seed=seed)
    result = analyse(made.puzzle, 2, method="sat")
    assert result.status == "unique" and result.solutions == (made.solution,)
    assert made.rating.unique
    assert made.changed == sum(a != b for ra, rb in zip(made.start, made.solution)
                               for a, b in zip(ra, rb)) <= made.attempts
    used = {ch for row in made.solution for ch in row} - {"."}
    assert used <= {c.symbol for c in PALETTE[:colours]}


def test_an_ambiguous_grid_is_repaired_to_a_unique_one() -> None:
    """Two black cells on a diagonal (or the other one): the repair must change a cell, and
    the SAT backend and brute force must agree the result is unique."""
    palette = random_palette(2)
    grid = ("k..", ".k.", "..r")
    assert sat_status(colour_puzzle_from_grid(grid, palette)) == "multiple"
    for seed in range(5):
        made = make_colour_unique(grid, palette, seed=seed)
        assert made.changed >= 1 and made.start == grid
        assert sat_status(made.puzzle) == "unique" and brute_force_count(made.puzzle) == 1


def test_every_ink_of_the_palette_round_trips() -> None:
    made = generate_colour(12, 12, MAX_COLOURS, seed=7, density=0.8)
    assert len({ch for row in made.solution for ch in row}) == MAX_COLOURS + 1
    for fmt in colour_formats():
        back = parse_puzzle(write_puzzle(made.puzzle, fmt), fmt)
        assert back == made.puzzle and back.palette == made.puzzle.palette, fmt


def test_same_seed_same_puzzle() -> None:
    a = generate_colour(15, 12, 3, seed=42)
    b = generate_colour(15, 12, 3, seed=42)
    assert a.puzzle == b.puzzle and a.solution == b.solution and a.attempts == b.attempts
    assert a.puzzle.palette == b.puzzle.palette
    assert generate_colour(15, 12, 3, seed=43).solution != a.solution
    c = generate_colour(15, 12, 3, seed=42, picture=True)
    assert c.solution == generate_colour(15, 12, 3, seed=42, picture=True).solution
    assert c.solution != a.solution


def test_seed_is_chosen_and_reported_when_not_given() -> None:
    made = generate_colour(6, 6, 3)
    assert generate_colour(6, 6, 3, seed=made.seed).puzzle == made.puzzle


@pytest.mark.parametrize("level, colours, seed", [("line", 3, 1), ("probe", 2, 1),
                                                  ("probe", 6, 2)])
def test_level_is_the_one_asked_for(level: str, colours: int, seed: int) -> None:
    made = generate_colour(15, 15, colours, seed=seed, level=level,  # type: ignore[arg-type]
                           picture=True)
    again = rate(made.puzzle)
    assert again.unique and again.level == made.rating.level == level
    assert sat_status(made.puzzle) == "unique"


def test_bands_are_the_density_in_equal_shares() -> None:
    palette = random_palette(4)
    grid, second, cost = banded_grid(20, 20, palette, 0.6, random.Random(1))
    cells = "".join(grid)
    assert cells.count(".") == 160
    assert [cells.count(c.symbol) for c in palette[1:]] == [60, 60, 60, 60]
    assert all(a != b for ra, rb in zip(grid, second) for a, b in zip(ra, rb))
    assert all(0 <= v <= 1 for row in cost for v in row)


@pytest.mark.parametrize("colours", [0, -1, MAX_COLOURS + 1])
def test_bad_colour_counts_are_refused(colours: int) -> None:
    with pytest.raises(ValueError, match="colours must be between 1 and"):
        generate_colour(5, 5, colours, seed=1)


def test_a_limit_ends_the_run_with_a_message() -> None:
    with pytest.raises(LimitReached, match="needs search found within 2 grids"):
        generate_colour(6, 6, 3, seed=1, level="search", rounds=2)
    with pytest.raises(LimitReached, match="^no unique puzzle within 0 s$"):
        generate_colour(6, 6, 3, seed=1, timeout=0.0)


@pytest.mark.heavy
def test_a_puzzle_that_needs_search() -> None:
    """Colour puzzles that need search are rare: banded shapes at 40x40 (about 5 s)."""
    made = generate_colour(40, 40, 3, seed=1, level="search", density=0.35, picture=True,
                           rounds=10)
    assert made.rating.level == rate(made.puzzle).level == "search"
    assert sat_status(made.puzzle) == "unique"


# --- pictures -------------------------------------------------------------------------

#: A picture of a dark blue background (the border), a red disc, a green bar and a white patch.
BLUE, RED, GREEN, WHITE = (20, 30, 120), (210, 30, 30), (30, 170, 40), (250, 250, 250)


def _picture() -> tuple[list[tuple[int, int, int]], int, int]:
    width, height = 12, 10
    pixels = []
    for r in range(height):
        for c in range(width):
            if (r - 4) ** 2 + (c - 4) ** 2 <= 6:
                pixels.append(RED)
            elif 7 <= c <= 9 and 2 <= r <= 7:
                pixels.append(GREEN)
            elif r == 8 and 2 <= c <= 5:
                pixels.append(WHITE)
            else:
                pixels.append(BLUE)
    return pixels, width, height


def test_the_border_colour_becomes_the_white_background() -> None:
    pixels, width, height = _picture()
    pic = quantised_grid(pixels, width, height, [WHITE, BLUE, RED, GREEN, (0, 0, 0)])
    names = [c.name for c in pic.palette]
    assert names[0] == "white" and pic.palette[0].rgb == (255, 255, 255)
    assert pic.palette[1].rgb == RED  # the most used ink first; black, unused, left out
    assert {c.rgb for c in pic.palette[1:]} == {RED, GREEN, WHITE}
    assert len(set(names)) == len(names) == 4
    symbol = {c.rgb: c.symbol for c in pic.palette[1:]}
    assert pic.grid[4][4] == symbol[RED] and pic.grid[0][0] == "."
    assert pic.grid[8][2] == symbol[WHITE]


def test_a_quantised_picture_is_made_unique_and_round_trips() -> None:
    pixels, width, height = _picture()
    pic = quantised_grid(pixels, width, height, [WHITE, BLUE, RED, GREEN])
    made = make_colour_unique(pic.grid, pic.palette, second=pic.second, cost=[
        list(row) for row in pic.cost])
    assert sat_status(made.puzzle) == "unique"
    assert len(made.puzzle.palette) - 1 <= 3
    for fmt in colour_formats():
        back = parse_puzzle(write_puzzle(made.puzzle, fmt), fmt)
        assert back == made.puzzle, fmt
        assert back.palette == made.puzzle.palette, fmt  # names, RGB and symbols


def test_a_picture_of_one_colour_is_an_empty_puzzle() -> None:
    pic = quantised_grid([BLUE] * 6, 3, 2, [BLUE, RED])
    assert pic.grid == ("...", "...") and len(pic.palette) == 2


@pytest.fixture
def picture_file(tmp_path: Path) -> Path:
    image = pytest.importorskip("PIL.Image")
    pixels, width, height = _picture()
    img = image.new("RGB", (width, height))
    img.putdata(pixels)
    path = tmp_path / "pic.png"
    img.resize((width * 10, height * 10), image.Resampling.NEAREST).save(path)
    return path


@pytest.mark.parametrize("colours", [1, 2, 3, 5])
def test_from_image_keeps_at_most_n_colours(picture_file: Path, colours: int,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["nonogram", "generate", "--width", "12", "--height", "10", "--from-image",
            str(picture_file), "--colours", str(colours), "--to", "webpbn"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    puzzle = parse_puzzle(out, "webpbn")
    if colours == 1:  # black and white, as without --colours
        assert not isinstance(puzzle, ColourPuzzle)
        assert ", 1 colour" not in err
        return
    assert isinstance(puzzle, ColourPuzzle)
    assert 1 <= len(puzzle.palette) - 1 <= colours
    assert puzzle.palette[0].rgb == (255, 255, 255)
    assert sat_status(puzzle) == "unique"
    assert f"from {picture_file}, {len(puzzle.palette) - 1} colours: unique" in err
    assert main(argv) == 0 and capsys.readouterr() == (out, err)


def test_the_cli_writes_a_colour_puzzle_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["nonogram", "generate", "--width", "10", "--height", "8", "--colours", "4",
            "--seed", "9"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    puzzle = parse_puzzle(out)
    assert isinstance(puzzle, ColourPuzzle)
    assert [c.name for c in puzzle.palette] == ["white", "black", "red", "blue", "green"]
    assert puzzle.title == "gridsolve 10x8 4 colours density 0.5 seed 9"
    assert err.startswith("gridsolve: 10x8 seed 9, 4 colours: unique, level ")
    assert sat_status(puzzle) == "unique"
    assert main(argv) == 0 and capsys.readouterr() == (out, err)


@pytest.mark.parametrize("value", ["0", "11", "x", "-2"])
def test_a_bad_colour_count_is_one_line(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["nonogram", "generate", "--width", "5", "--height", "5", "--colours", value])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == "" and err.count("\n") == 1 and "--colours" in err


def test_the_text_format_refuses_a_colour_puzzle_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["nonogram", "generate", "--width", "5", "--height", "5", "--colours", "2",
                 "--seed", "1", "--to", "text"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and "black-and-white" in err


def _columns_agree(grid: Grid, puzzle: ColourPuzzle) -> bool:
    return all(colour_clue_of(col, puzzle.palette) == clue
               for col, clue in zip(columns_of(grid), puzzle.cols))


def test_brute_force_counts_an_ambiguous_puzzle() -> None:
    """The brute-force oracle itself: the 2x2 diagonals have two solutions."""
    puzzle = colour_puzzle_from_grid(("k.", ".k"), random_palette(1))
    assert brute_force_count(puzzle) == 2
    assert _columns_agree(("k.", ".k"), puzzle) and _columns_agree((".k", "k."), puzzle)


def test_a_black_and_white_format_is_refused_before_the_work(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """--colours with --to text: one line, exit 2, and no puzzle made first (a review found
    the whole generation and its proof ran before the refusal)."""
    from gridsolve.cli import nonogram_author

    def no_work(*_args: object, **_kwargs: object) -> object:
        raise AssertionError("a colour puzzle was generated")
    monkeypatch.setattr(nonogram_author, "_generate_colour", no_work)
    code = main(["nonogram", "generate", "--width", "30", "--height", "30", "--colours", "3",
                 "--to", "text"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--to text" in err, err
    assert all(f in err for f in colour_formats())
