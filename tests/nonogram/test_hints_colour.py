"""hint and explain on colour puzzles: every step agrees with the solution (the colour engine's,
and brute force on small puzzles), a line step is what the plain-Python reference line solver
forces, play by hints alone reaches the picture, a wrong cell is named, and the words are
those of black and white."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from gridsolve.errors import ParseError
from gridsolve.nonogram.engine import analyse
from gridsolve.nonogram.formats import read_puzzle
from gridsolve.nonogram.formats.position import parse_position
from gridsolve.nonogram.hints import Hint, apply_hint, check_position, hint
from gridsolve.nonogram.lines import line_cells
from gridsolve.nonogram.model import (WHITE, Colour, ColourPuzzle, Grid,
                                      colour_puzzle_from_grid, is_colour_solution)
from gridsolve.nonogram.reference_colour import colour_arrangements, solve_colour_line
from gridsolve.nonogram.watch.account import explanation_lines
from gridsolve.nonogram.watch.colour_reasons import colour_extremes, count_colour_fits
from gridsolve.nonogram.watch.explain import explain
from tests.nonogram.oracle import all_colour_solutions

EXAMPLE = Path(__file__).resolve().parents[2] / "src" / "gridsolve" / "examples" / "mushroom.json"
PALETTE = (WHITE, Colour("red", (255, 0, 0), "r"), Colour("green", (0, 160, 0), "g"),
           Colour("blue", (0, 0, 255), "b"))
ENDS = ("solved", "mistake", "no-solution")


def random_puzzle(seed: int, side: int, colours: int = 3,
                  density: float = 0.6) -> tuple[ColourPuzzle, Grid]:
    """A random picture of ``colours`` colours and the puzzle it makes (fixed seed)."""
    rng = random.Random(seed)
    grid = tuple("".join(rng.choice("rgb"[:colours]) if rng.random() < density else "."
                         for _ in range(side)) for _ in range(side))
    return colour_puzzle_from_grid(grid, PALETTE[:colours + 1]), grid


def blank(puzzle: ColourPuzzle) -> Grid:
    return tuple("?" * puzzle.width for _ in range(puzzle.height))


def masks_of(puzzle: ColourPuzzle, grid: Grid, line: int) -> list[int]:
    """A line of a person's grid as the reference solver takes it ('?': every colour)."""
    flat = "".join(grid)
    full = (1 << len(puzzle.palette)) - 1
    return [full if flat[c] == "?" else 1 << puzzle.colour_index(flat[c])
            for c in line_cells(puzzle, line)]


def play(puzzle: ColourPuzzle, steps: int = 400) -> tuple[list[Hint], Grid]:
    """Hints from the empty board, each applied, until an end: the hints and the grid."""
    grid, seen = blank(puzzle), []
    for _ in range(steps):
        step = hint(puzzle, grid)
        seen.append(step)
        if step.kind in ENDS:
            return seen, grid
        assert step.cells, step
        grid = apply_hint(grid, step)
    raise AssertionError("no end within the steps")


def clue_of(puzzle: ColourPuzzle, line: int) -> tuple[tuple[int, int], ...]:
    return puzzle.rows[line] if line < puzzle.height else puzzle.cols[line - puzzle.height]


def check_line_step(puzzle: ColourPuzzle, grid: Grid, step: Hint) -> None:
    """A line step's cells are what the reference solver forces on its line, alone; a step
    helped by crossing lines ('... leaves r3c4 red or green; so ...'), what it forces once
    every crossing line, solved alone by the reference, has taken its colours away."""
    clue = clue_of(puzzle, step.line)
    assert step.clue == clue
    masks = masks_of(puzzle, grid, step.line)
    where = line_cells(puzzle, step.line)
    if "; so " in step.reason:
        for p, cell in enumerate(where):
            r, c = divmod(cell, puzzle.width)
            k = puzzle.height + c if step.line < puzzle.height else r
            crossing = solve_colour_line(clue_of(puzzle, k), masks_of(puzzle, grid, k))
            assert crossing is not None
            masks[p] &= crossing[line_cells(puzzle, k).index(cell)]
    else:
        assert solve_colour_line(clue, masks) is not None
    after = solve_colour_line(clue, masks)
    assert after is not None
    for cell, value in step.cells:
        forced = after[where.index(cell)]
        assert forced == 1 << puzzle.colour_index(value), (step, cell)


def test_mushroom_is_solved_by_line_steps_alone_in_the_words_of_black_and_white() -> None:
    puzzle = read_puzzle(str(EXAMPLE))
    assert isinstance(puzzle, ColourPuzzle)
    (solution,) = analyse(puzzle, 2).solutions
    steps, grid = play(puzzle)
    assert steps[-1].kind == "solved" and grid == solution
    assert {s.kind for s in steps[:-1]} <= {"line", "whole-line"}
    position = blank(puzzle)
    for step in steps[:-1]:
        check_line_step(puzzle, position, step)
        position = apply_hint(position, step)
    first = steps[0]
    assert first.reason.startswith("row 5 (clue 2 red 2 cream 8 red): columns 1-2 are red: "
                                   "the first block (2 red) covers them in both its leftmost "
                                   "(1-2) and rightmost (1-2) placements; columns 3-4 are "
                                   "cream: ")
    assert any("are empty: no block can reach them" in s.reason for s in steps)


@pytest.mark.parametrize("seed", [2, 3, 6, 7, 8, 9])
def test_every_hint_agrees_with_the_unique_solution(seed: int) -> None:
    """Brute force over every grid says the puzzle is unique; each step's cells are that
    picture's, and the hints alone finish it."""
    puzzle, _ = random_puzzle(seed, 5)
    solutions = all_colour_solutions(puzzle)
    (solution,) = solutions
    flat = "".join(solution)
    steps, grid = play(puzzle)
    assert grid == solution and steps[-1].kind == "solved"
    for step in steps[:-1]:
        assert all(flat[c] == v for c, v in step.cells), step


@pytest.mark.parametrize("seed", [9, 3, 5])
def test_hints_on_larger_puzzles_agree_with_the_engine_and_finish(seed: int) -> None:
    """10x10 with three colours: seed 9 needs more than line logic (a contradiction), and
    every contradiction's probe takes the solution's colour away; line steps (alone, or
    helped by the colours crossing lines take away) are forced by the reference solver."""
    puzzle, picture = random_puzzle(seed, 10)
    result = analyse(puzzle, 2)
    assert result.status == "unique" and result.solutions == (picture,)
    flat = "".join(picture)
    steps, grid = play(puzzle)
    assert grid == picture
    position = blank(puzzle)
    for step in steps[:-1]:
        assert all(flat[c] == v for c, v in step.cells), step
        if step.kind in ("line", "whole-line"):
            check_line_step(puzzle, position, step)
        if step.kind == "contradiction":
            assert step.probe is not None
            cell, assumed = step.probe
            assert flat[cell] not in assumed and step.cells == ((cell, flat[cell]),)
            word = "empty" if flat[cell] == "." else \
                puzzle.palette[puzzle.colour_index(flat[cell])].name
            assert step.reason.endswith(f"could not fit its clue; so r{cell // 10 + 1}"
                                        f"c{cell % 10 + 1} is {word}")
        position = apply_hint(position, step)
    if seed == 9:  # line logic alone stalls: a contradiction; crossing lines help often
        assert sum(s.kind == "contradiction" for s in steps) == 1
        crossing = [s for s in steps if " leaves " in s.reason]
        assert len(crossing) > 5
        said = r"(row|column) \d+ \(clue [^)]*\) leaves r\d+c\d+ (empty|red|green|blue)"
        for step in crossing:
            assert re.match(rf"{said}(, (red|green|blue))*( or (red|green|blue))?"
                            rf"(; {said}.*?)*; so (row|column) \d+ \(clue [^)]*\): "
                            r"(rows?|columns?) [\d, -]+ (is|are) ", step.reason), step.reason


def test_a_wrong_cell_is_named_as_a_mistake() -> None:
    puzzle = read_puzzle(str(EXAMPLE))
    assert isinstance(puzzle, ColourPuzzle)
    (solution,) = analyse(puzzle, 2).solutions
    rows = list(blank(puzzle))
    rows[0] = solution[0][:3] + "r" + "?" * (puzzle.width - 4)  # r1c4 is background
    rows[11] = solution[11]  # right cells beside it are not named
    step = hint(puzzle, tuple(rows))
    assert step.kind == "mistake" and step.wrong == (3,)
    assert step.reason == "1 of the cells set does not match the solution"
    assert check_position(puzzle, tuple(rows)) == step
    rows[0] = "...rrrrr" + "?" * (puzzle.width - 8)  # five red: row 1's clue is 4 red
    step = hint(puzzle, tuple(rows))
    assert step.kind == "mistake" and step.wrong == (3,) and step.line == 0
    assert step.reason == ("row 1 (clue 4 red) cannot fit its clue with the cells set in it; "
                           "1 of the cells set does not match the solution")
    # a colour where another colour belongs (no line breaks): named all the same
    rows = list(solution)
    rows[4] = "rrwwrrrrrrr" + "w"  # r5c12 is red
    step = hint(puzzle, tuple(rows))
    assert step.kind == "mistake" and step.wrong == (4 * 12 + 11,)
    assert check_position(puzzle, solution).kind == "solved"  # type: ignore[union-attr]


def test_several_solutions_a_guess_shows_a_fitting_one() -> None:
    puzzle = colour_puzzle_from_grid(("r.", ".r"), PALETTE[:2])  # also ".r" / "r."
    step = hint(puzzle)
    assert step.kind == "guess" and len(step.cells) == 1
    (cell, value), = step.cells
    assert any(sol[cell // 2][cell % 2] == value for sol in all_colour_solutions(puzzle))


def test_colour_positions_read_the_palette_symbols() -> None:
    symbols = "".join(c.symbol for c in PALETTE)
    assert parse_position("r?x\n.gb\n", 3, 2, "p.txt", symbols) == ("r?.", ".gb")
    assert parse_position('[["r", null, 0], [0, 2, 3]]', 3, 2, "p.json", symbols) == (
        "r?.", ".gb")
    with pytest.raises(ParseError, match="unexpected '#': cells are the palette's symbols"):
        parse_position("r#.\n...\n", 3, 2, "p.txt", symbols)
    with pytest.raises(ValueError, match="grid cells must be"):
        hint(random_puzzle(0, 3)[0], ("#..", "...", "..."))


def test_the_json_of_a_colour_step() -> None:
    puzzle = read_puzzle(str(EXAMPLE))
    out = hint(puzzle).as_json(puzzle.width)
    assert out["kind"] == "line" and out["clue"] == [[2, 1], [2, 2], [8, 1]]
    assert out["cells"][:3] == [{"row": 4, "col": 0, "value": "r"},
                                {"row": 4, "col": 1, "value": "r"},
                                {"row": 4, "col": 2, "value": "w"}]


def test_colour_extremes_and_counts_match_every_arrangement() -> None:
    """The leftmost and rightmost starts of each block, and the count of arrangements, as
    enumerating every arrangement that fits the masks finds them."""
    rng = random.Random(5)
    for _ in range(300):
        n = rng.randint(1, 9)
        truth = "".join(rng.choice("..rg") for _ in range(n))
        pal = PALETTE[:3]
        clue = colour_puzzle_from_grid((truth,), pal).rows[0]
        masks = [rng.randint(1, 7) if rng.random() < 0.1
                 else 1 << ".rg".index(ch) | rng.randint(0, 7) for ch in truth]
        fits = [a for a in colour_arrangements(clue, n)
                if all(masks[i] >> c & 1 for i, c in enumerate(a))]
        assert count_colour_fits(clue, masks) == len(fits)
        ext = colour_extremes(clue, masks)
        if not fits:
            assert ext is None
            continue
        starts = [_starts(a, clue) for a in fits]
        assert ext == ([min(s[j] for s in starts) for j in range(len(clue))],
                       [max(s[j] for s in starts) for j in range(len(clue))])


def _starts(arrangement: tuple[int, ...], clue: tuple[tuple[int, int], ...]) -> list[int]:
    """Where each block of an arrangement starts (a block: a run of one colour)."""
    return [i for i, c in enumerate(arrangement) if c and (i == 0 or arrangement[i - 1] != c)]


@pytest.mark.parametrize("seed", [9, 3])
def test_explain_a_colour_puzzle(seed: int) -> None:
    """Every cell the account settles is the picture's, no colour it takes away is, and it
    ends on the picture."""
    puzzle, picture = random_puzzle(seed, 10)
    account = explain(puzzle)
    assert account.status == "unique" and account.grid == picture
    assert is_colour_solution(puzzle, account.grid)
    for d in account.deductions:
        if d.kind == "line":
            where = line_cells(puzzle, d.line)
            flat = "".join(picture)
            assert all(flat[where[f.pos]] == f.value for f in d.forced)
            assert all(flat[where[f.pos]] != f.value for f in d.ruled_out)
    text = "\n".join(explanation_lines(account, "\n".join))
    if seed == 9:
        assert "the engine probes cells" in text and "with any other colour" in text
        assert "Solved by line logic with 1 cell learned by probing" in text
    else:
        assert "Solved by line logic alone" in text


def test_explain_a_colour_puzzle_stops_at_its_timeout() -> None:
    from gridsolve.nonogram.engine import SearchLimits

    puzzle, _ = random_puzzle(9, 10)
    account = explain(puzzle, SearchLimits(timeout=1e-9))
    assert account.stopped and account.status == "unknown" and account.solutions == ()
    assert "The time limit came first" in "\n".join(explanation_lines(account, "\n".join))
