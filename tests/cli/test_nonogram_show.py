"""The showing/watching side of the command line: exact output and exit codes."""

from __future__ import annotations

import argparse
import io
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from gridsolve.cli import main
from gridsolve.cli.nonogram_show import print_grid
from gridsolve.nonogram.model import puzzle_from_grid

TINY = "# tiny\n2\n1\n--\n2\n1\n"
PROBE = "2\n2 1\n1\n2\n--\n1 1\n2 1\n2\n0\n1\n"  # line logic stalls; probing finishes it
TWO = "1\n1\n--\n1\n1\n"  # two solutions: needs a guess and a backtrack


@pytest.fixture()
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.txt"
    path.write_text(TINY)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_with_clue_margins(capsys: pytest.CaptureFixture[str], tiny: Path) -> None:
    code, out, _ = run(capsys, "nonogram", "solve", str(tiny), "--clues", "--ascii")
    assert code == 0
    assert out == "  2 1\n2 # #\n1 # .\n\nstatus: unique solution\n"


def test_steps_exact(capsys: pytest.CaptureFixture[str], tiny: Path) -> None:
    code, out, _ = run(capsys, "nonogram", "solve", str(tiny), "--steps", "--ascii")
    assert code == 0
    assert out == (
        "round 1\n"
        "  row 1     2  filled 1-2\n"
        "  column 1  2  filled 2\n"
        "  column 2  1  empty 2\n"
        "  round 1: 3 lines fixed 4 cells; 4 of 4 cells known\n"
        "##\n#.\n\n"
        "solution 1 found\n"
        "summary: 1 round of line logic at the start, 3 line steps fixing 4 cells in all,\n"
        "          0 probes (0 contradictions, 0 cells learned), 0 guesses, 0 backtracks\n\n"
        "##\n#.\n\nstatus: unique solution\n")


def test_steps_pad_clues_to_a_column_of_bounded_width(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    """A long row clue does not widen every line's clue column (a 100,000-cell row's clue
    padded each of its 100,000 one-cell columns: 5 GB of --steps): short clues are padded to
    at most CLUE_COLUMN characters, a longer clue takes the room it needs."""
    from gridsolve.nonogram.watch.steps import CLUE_COLUMN
    top = "#." * 29 + "#"  # 59 cells, thirty 1s: settled by its own 59-character clue
    path = tmp_path / "long.txt"
    path.write_text(" ".join(["1"] * 30) + "\n59\n--\n"
                    + "".join("2\n" if ch == "#" else "1\n" for ch in top))
    code, out, _ = run(capsys, "nonogram", "solve", str(path), "--steps", "--ascii")
    assert code == 0
    lines = out.splitlines()
    label = len("column 1") + 2  # the printer pads labels to the first column's, plus two
    assert lines[1] == "  " + "row 1".ljust(label) + " ".join(["1"] * 30) + "  filled " + \
        ", ".join(str(i) for i in range(1, 60, 2)) + "; empty " + \
        ", ".join(str(i) for i in range(2, 60, 2))
    assert lines[2] == "  " + "row 2".ljust(label) + "59".ljust(CLUE_COLUMN) + "  filled 1-59"


def test_steps_show_probes_guesses_and_backtracks(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    (tmp_path / "p.txt").write_text(PROBE)
    code, out, _ = run(capsys, "nonogram", "solve", str(tmp_path / "p.txt"), "--steps")
    assert code == 0
    assert "probe r1c1 = empty: contradiction\n" in out
    assert "learned r1c1 = filled (the other value led to a contradiction)\n" in out
    (tmp_path / "two.txt").write_text(TWO)
    code, out, _ = run(capsys, "nonogram", "solve", str(tmp_path / "two.txt"), "--steps")
    assert code == 0
    assert "guess r1c1 = " in out and "backtrack from depth 1" in out
    assert "solution 2 found" in out


def test_explain_exact(capsys: pytest.CaptureFixture[str], tiny: Path) -> None:
    code, out, _ = run(capsys, "nonogram", "explain", str(tiny), "--ascii")
    assert code == 0
    assert out == (
        "Round 1\n"
        "  row 1, clue 2\n"
        "    cols 1-2 filled: the block (2) covers them in both its leftmost (1-2) and "
        "rightmost (1-2) placements\n"
        "  column 1, clue 2\n"
        "    row 2 filled: the block (2) covers it in both its leftmost (1-2) and "
        "rightmost (1-2) placements\n"
        "  column 2, clue 1\n"
        "    row 2 empty: no block can reach it (the blocks can only cover 1)\n"
        "\n"
        "Solved by line logic alone: 1 round, 3 line steps.\n"
        "\n"
        "  2 1\n2 # #\n1 # .\n")


def test_explain_probing_and_no_solution(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "p.txt").write_text(PROBE)
    code, out, _ = run(capsys, "nonogram", "explain", str(tmp_path / "p.txt"))
    assert code == 0
    assert "Line logic stalls with 8 of 20 cells unknown" in out
    assert "probe r1c1: if it were empty, some line could not be satisfied, so it is filled" in out
    (tmp_path / "none.txt").write_text("1 1\n0\n--\n1\n1\n0\n")
    code, out, _ = run(capsys, "nonogram", "explain", str(tmp_path / "none.txt"))
    assert code == 1
    assert "No solution: line logic reaches a contradiction." in out


def test_pictures_are_written(capsys: pytest.CaptureFixture[str], tiny: Path, tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    svg, png = tmp_path / "t.svg", tmp_path / "t.png"
    code, _, err = run(capsys, "nonogram", "solve", str(tiny), "--svg", str(svg), "--png", str(png))
    assert code == 0 and err == ""
    root = ET.parse(svg).getroot()
    assert sum(r.get("class") == "filled" for r in root.iter("{http://www.w3.org/2000/svg}rect")) == 3
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_unwritable_output_is_one_clear_line(capsys: pytest.CaptureFixture[str], tiny: Path,
                                             tmp_path: Path) -> None:
    bad = str(tmp_path / "missing" / "t.svg")
    code, _, err = run(capsys, "nonogram", "solve", str(tiny), "--svg", bad)
    assert code == 2
    assert err == f"gridsolve: error: cannot write {bad}: No such file or directory\n"


def test_bad_animation_name_and_steps_with_json(capsys: pytest.CaptureFixture[str], tiny: Path) -> None:
    code, out, err = run(capsys, "nonogram", "solve", str(tiny), "--animate", "x.mp4")
    assert (code, out) == (2, "")
    assert err == "gridsolve: error: --animate x.mp4: the file name must end in .gif or .html\n"
    code, out, err = run(capsys, "nonogram", "solve", str(tiny), "--steps", "--json")
    assert (code, out) == (2, "")
    assert err == "gridsolve: error: --steps prints text; it cannot be combined with --json\n"


def test_colour_when_the_terminal_supports_it(monkeypatch: pytest.MonkeyPatch) -> None:
    grid = ("##", "#.")
    args = argparse.Namespace(ascii=True, clues=True)
    plain, coloured = io.StringIO(), io.StringIO()
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    print_grid(args, puzzle_from_grid(grid), grid, plain)
    assert plain.getvalue() == "  2 1\n2 # #\n1 # .\n"
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    print_grid(args, puzzle_from_grid(grid), grid, coloured)
    assert "\x1b[" in coloured.getvalue()


def test_animations_are_written(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    from PIL import Image
    (tmp_path / "two.txt").write_text(TWO)
    gif, page = tmp_path / "a.gif", tmp_path / "a.html"
    for path in (gif, page):
        code, _, err = run(capsys, "nonogram", "solve", str(tmp_path / "two.txt"),
                           "--animate", str(path))
        assert code == 0 and err == ""
    with Image.open(gif) as img:
        assert getattr(img, "n_frames", 1) > 10
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and "http://" not in text and "https://" not in text


_PAGE_STUB = """
const els = {};
const fakeContext = new Proxy({}, {get: (t, k) => (k in t ? t[k] : () => {}),
                                  set: (t, k, v) => { t[k] = v; return true; }});
const el = id => els[id] || (els[id] = {id, value: "4", style: {}, textContent: "", innerHTML: "",
  tagName: "DIV", getContext: () => fakeContext});
globalThis.document = {getElementById: el, addEventListener: () => {}};
globalThis.window = {devicePixelRatio: 1};
globalThis.performance = {now: () => 0};
globalThis.requestAnimationFrame = () => {};
"""


def _run_player(tmp_path: Path, page: str, check: str) -> Any:
    """Run the player page's script in node with a stub page, then ``check`` (which prints
    one JSON value); what it printed. Skips when node is not installed."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = page.split("<script>", 1)[1].split("</script>", 1)[0]
    (tmp_path / "player.js").write_text(_PAGE_STUB + script + check)
    out = subprocess.run([node, str(tmp_path / "player.js")], capture_output=True, text=True,
                         timeout=30, check=True).stdout
    import json
    return json.loads(out)


@pytest.mark.heavy
def test_html_player_steps_to_the_end_and_back(tmp_path: Path) -> None:
    """Run the player's script in node with a stub page: the last step shows the final grid."""
    from gridsolve.nonogram.watch.player import animation_html
    from gridsolve.nonogram.watch.trace import trace_solve
    puzzle = puzzle_from_grid(("##.#", "#..#", ".##.", "#.##"))
    _, trace = trace_solve(puzzle, 1)
    got = _run_player(tmp_path, animation_html(puzzle, trace.steps), """
el("last").onclick();
const end = Array.from(state).join("");
el("back").onclick();
const back = el("counter").textContent;
el("first").onclick();
console.log(JSON.stringify({end, back, start: Array.from(state).join(""), caption: el("caption").textContent}));
""")
    code = {"#": "2", ".": "1", "?": "0"}
    assert got["end"] == "".join(code[ch] for row in trace.final() for ch in row)
    assert got["back"] == f"step {len(trace.steps) - 1} of {len(trace.steps)}"
    assert got["start"] == "0" * 16 and got["caption"] == "the blank puzzle"


@pytest.mark.heavy
def test_html_player_holds_guesses_and_probes_both_ways(tmp_path: Path) -> None:
    """Run the player's script in node: the held highlights (guesses, a probe's cells), kept as
    changes, are the same at each step reached forward, one step at a time, and back from
    the end, and are those highlights() holds there."""
    from gridsolve.nonogram.watch.frames import MARKS, highlights
    from gridsolve.nonogram.watch.player import animation_html
    from gridsolve.nonogram.watch.trace import trace_solve
    puzzle = puzzle_from_grid(tuple("".join("#."[(r + c) % 2] for c in range(6)) for r in range(6)))
    _, trace = trace_solve(puzzle, 20)  # a checkerboard: guesses held deep, backtracks
    got = _run_player(tmp_path, animation_html(puzzle, trace.steps), """
const fwd = [Array.from(held).join(",")], bwd = [];
for (let k = 1; k <= N; k++) { seek(k); fwd.push(Array.from(held).join(",")); }
for (let k = N; k >= 0; k--) { seek(k); bwd.unshift(Array.from(held).join(",")); }
console.log(JSON.stringify({fwd, bwd}));
""")
    want = [",".join("0" * 36)]
    for _, _, held in highlights(trace.steps):
        want.append(",".join(str(MARKS.index(held[c]) + 1 if c in held else 0) for c in range(36)))
    assert got["fwd"] == got["bwd"] == want
    assert len(set(want)) > 10 and any("4" in w for w in want)  # guesses were held


def test_a_puzzle_too_big_for_a_gif_or_png_is_refused_before_the_solve(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The picture's size is known from the clues: a GIF frame or PNG over its pixel budget is
    one line before any solving (it came after a full --timeout of search)."""
    pytest.importorskip("PIL")
    from gridsolve.nonogram import engine
    from gridsolve.nonogram.backends import auto

    def no_solve(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved before the refusal")
    monkeypatch.setattr(engine, "analyse", no_solve)
    monkeypatch.setattr(auto, "analyse", no_solve)
    wide = tmp_path / "wide.txt"
    wide.write_text("1000\n" * 600 + "--\n" + "600\n" * 1000)  # 1000 wide, 600 high, all filled
    code, out, err = run(capsys, "nonogram", "solve", str(wide), "--animate",
                         str(tmp_path / "a.gif"), "--jobs", "1")
    assert (code, out) == (2, "")
    assert "each frame of the GIF would be" in err and "write an .html animation instead" in err
    huge = tmp_path / "huge.txt"
    huge.write_text("1\n" * 2600 + "--\n" + "1\n" * 2600)
    code, out, err = run(capsys, "nonogram", "solve", str(huge), "--png", str(tmp_path / "a.png"),
                         "--no-limits", "--jobs", "1")
    assert (code, out) == (2, "")
    assert "the picture would be" in err and "over 36,000,000" in err


def test_steps_show_the_grid_each_round_only_on_puzzles_up_to_a_size(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The grid follows each round of pure line logic up to ROUND_GRID_CELLS cells; past it
    the rounds are told without it, and the grid is printed once, at the end."""
    from gridsolve.nonogram.watch import steps
    (tmp_path / "p.txt").write_text(PROBE)  # 5x4: three rounds of line logic, then probes
    code, small, _ = run(capsys, "nonogram", "solve", str(tmp_path / "p.txt"), "--steps",
                         "--ascii")
    monkeypatch.setattr(steps, "ROUND_GRID_CELLS", 15)
    code2, large, _ = run(capsys, "nonogram", "solve", str(tmp_path / "p.txt"), "--steps",
                          "--ascii")
    assert code == code2 == 0
    shown = [line for line in small.splitlines() if set(line) <= set("#.?") and line]
    not_shown = [line for line in large.splitlines() if set(line) <= set("#.?") and line]
    assert len(shown) == 4 * 4 and len(not_shown) == 4  # three rounds' grids, then the answer
    assert [line for line in large.splitlines() if "cells known" in line] == \
        [line for line in small.splitlines() if "cells known" in line]


@pytest.mark.parametrize("option", ["--png", "--svg", "--animate"])
def test_an_empty_output_file_name_is_refused(capsys: pytest.CaptureFixture[str], tiny: Path,
                                              option: str) -> None:
    """An empty file name was taken as no picture asked for (found by a fuzz run): it is one
    line and exit 2 now."""
    code, out, err = run(capsys, "nonogram", "solve", str(tiny), option, "")
    assert (code, out) == (2, "")
    assert err.endswith(f"error: argument {option}: the file name is empty\n")


@pytest.mark.parametrize("option", ["--png", "--svg", "--animate"])
def test_a_picture_to_standard_output_is_refused(capsys: pytest.CaptureFixture[str], tiny: Path,
                                                 tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 option: str) -> None:
    """'--png -' wrote a file named '-' (found by a fuzz run); standard output carries the
    text answer, so '-' is refused in one line and nothing is written."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "nonogram", "solve", str(tiny), option, "-")
    assert (code, out) == (2, "")
    assert err.endswith(f"error: argument {option}: '-' would be standard output, which "
                        "carries the text answer: give a file name\n")
    assert not (tmp_path / "-").exists()


def test_pictures_do_not_write_over_the_puzzle_or_each_other(
        capsys: pytest.CaptureFixture[str], tiny: Path, tmp_path: Path) -> None:
    """A picture named as the puzzle file wrote over it, and --png and --svg of one name kept
    only the PNG (found by a fuzz run): both are one line, before the solve."""
    before = tiny.read_text()
    code, out, err = run(capsys, "nonogram", "solve", str(tiny), "--svg", str(tiny))
    assert (code, out) == (2, "") and tiny.read_text() == before
    assert err == f"gridsolve: error: --svg {tiny} would write over the puzzle file\n"
    same = str(tmp_path / "x.pic")
    code, out, err = run(capsys, "nonogram", "solve", str(tiny), "--svg", same, "--png", same)
    assert (code, out) == (2, "")
    assert err == f"gridsolve: error: --png and --svg name the same file, {same}\n"
    code, out, err = run(capsys, "nonogram", "solve", str(tiny), "--svg", str(tmp_path / "a.svg"))
    assert code == 0 and (tmp_path / "a.svg").exists()


def test_hint_refuses_the_puzzle_and_the_grid_both_from_standard_input(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """'hint - --grid -' said 'position has 0 rows' (the puzzle had read all of standard input)."""
    monkeypatch.setattr("sys.stdin", io.StringIO(TINY))
    code, out, err = run(capsys, "nonogram", "hint", "-", "--grid", "-")
    assert (code, out) == (2, "")
    assert err == ("gridsolve: error: the puzzle and --grid cannot both come from standard "
                   "input: give one of them as a file\n")
