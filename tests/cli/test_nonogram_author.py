"""gridsolve nonogram generate: output that reads back unique, seeds, pictures, exit codes."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from gridsolve.cli import main
from gridsolve.nonogram.engine import analyse
from gridsolve.nonogram.formats import bw_only, parse_puzzle, read_puzzle
from gridsolve.nonogram.image import grid_from_image, otsu_threshold, threshold_grid
from gridsolve.nonogram.model import puzzle_from_grid
from gridsolve.nonogram.rate import rate

REPORT = re.compile(r"gridsolve: (\d+)x(\d+) (seed \d+|from .+): unique, level (line|probe|search), "
                    r"score (\d+)/10; (\d+) attempts?, (\d+) cells? changed\n")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_generate_prints_a_unique_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["nonogram", "generate", "--width", "12", "--height", "9",
                          "--seed", "7"], capsys)
    assert code == 0
    assert REPORT.fullmatch(err), err
    assert out.startswith("# gridsolve 12x9 density 0.5 seed 7\n")
    puzzle = parse_puzzle(out)
    assert (puzzle.width, puzzle.height) == (12, 9)
    assert analyse(puzzle).status == "unique"
    again = run(["nonogram", "generate", "--width", "12", "--height", "9", "--seed", "7"], capsys)
    assert again == (code, out, err)


def test_generate_out_file_and_level(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "new.txt"
    code, out, err = run(["nonogram", "generate", "--width", "15", "--height", "15",
                          "--seed", "3", "--level", "line", "--out", str(path),
                          "--format", "text"], capsys)
    assert code == 0 and out == ""
    match = REPORT.fullmatch(err)
    assert match and match.group(4) == "line"
    rating = rate(bw_only(read_puzzle(str(path)), "this test"))
    assert rating.unique and rating.level == "line"


@pytest.mark.parametrize("args, message", [
    (["--width", "0", "--height", "5"], "argument --width: must be between 1 and 1000, got 0"),
    (["--width", "5", "--height", "1001"], "argument --height: must be between 1 and 1000"),
    (["--width", "5", "--height", "5", "--density", "1.5"], "argument --density: must be"),
    (["--width", "5", "--height", "5", "--seed", "-1"], "argument --seed: must be at least 0"),
    (["--width", "5", "--height", "5", "--level", "hard"], "argument --level: invalid choice"),
])
def test_generate_bad_arguments_exit_2(args: list[str], message: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["nonogram", "generate", *args], capsys)
    assert code == 2 and out == "" and message in err


def draw(tmp_path: Path, rows: list[str], scale: int = 4, name: str = "pic.png") -> str:
    """A tiny picture of our own: '#' dark grey, '.' light grey, each cell scale x scale."""
    from PIL import Image
    img = Image.new("L", (len(rows[0]) * scale, len(rows) * scale))
    img.putdata([40 if rows[y // scale][x // scale] == "#" else 220
                 for y in range(img.height) for x in range(img.width)])
    path = tmp_path / name
    img.save(path)
    return str(path)


def test_image_that_is_already_unique(tmp_path: Path) -> None:
    rows = [".##.", "####", "####", ".##."]
    grid, cost = grid_from_image(draw(tmp_path, rows), 4, 4)
    assert list(grid) == rows
    assert all(0 < c <= 1 for line in cost for c in line)


def test_image_with_alpha_is_on_white(tmp_path: Path) -> None:
    from PIL import Image
    img = Image.new("RGBA", (4, 2), (0, 0, 0, 0))
    img.putpixel((0, 0), (0, 0, 0, 255))
    path = tmp_path / "alpha.png"
    img.save(path)
    grid, _ = grid_from_image(str(path), 4, 2)
    assert grid == ("#...", "....")


def test_image_repaired_to_unique(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = ["#.#.#.", ".#.#.#", "#.#.#.", ".#.#.#"]  # a checkerboard: many solutions
    path = draw(tmp_path, rows)
    assert analyse(puzzle_from_grid(rows)).status == "multiple"
    code, out, err = run(["nonogram", "generate", "--from-image", path, "--width", "6",
                          "--height", "4"], capsys)
    assert code == 0
    match = REPORT.fullmatch(err)
    assert match and match.group(3) == f"from {path}"
    changed = int(match.group(7))
    puzzle = parse_puzzle(out)
    result = analyse(puzzle)
    assert result.status == "unique"
    (solution,) = result.solutions
    assert changed == sum(a != b for ra, rb in zip(rows, solution) for a, b in zip(ra, rb)) > 0


def test_image_bound_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = draw(tmp_path, ["#.#.", ".#.#", "#.#.", ".#.#"])
    code, out, err = run(["nonogram", "generate", "--from-image", path, "--width", "4",
                          "--height", "4", "--max-attempts", "1"], capsys)
    assert (code, out) == (1, "")
    assert err == "gridsolve: error: no unique puzzle within 1 attempt\n"


def test_image_unreadable_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "not.png"
    bad.write_text("hello")
    code, out, err = run(["nonogram", "generate", "--from-image", str(bad), "--width", "4",
                          "--height", "4"], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"gridsolve: error: {bad}: cannot read the picture")
    code, _, err = run(["nonogram", "generate", "--from-image", str(tmp_path / "no.png"),
                        "--width", "4", "--height", "4"], capsys)
    assert code == 2 and err == f"gridsolve: error: {tmp_path / 'no.png'}: no such file\n"


def test_missing_pillow_names_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = draw(tmp_path, ["#.", ".#"])
    monkeypatch.setitem(sys.modules, "PIL", None)
    code, _, err = run(["nonogram", "generate", "--from-image", path, "--width", "2",
                        "--height", "2"], capsys)
    assert code == 2
    assert err == "gridsolve: error: Pillow is not installed: pip install 'gridsolve[image]'\n"


def test_otsu_splits_two_groups() -> None:
    values = [10] * 50 + [200] * 50
    t = otsu_threshold(values)
    assert 10 < t <= 200
    grid, _ = threshold_grid([10, 200, 200, 10], 2, 2)
    assert grid == ("#.", ".#")
    assert otsu_threshold([77] * 9) == 128


def test_rate_words_a_puzzle_without_a_solution(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "none.txt"
    path.write_text("1 1\n1\n--\n2\n1\n0\n")
    code, out, _ = run(["nonogram", "rate", str(path)], capsys)
    assert code == 0 and out.splitlines()[:2] == [
        "unique: no: there is no solution",
        "level: line (line logic alone finds that the clues contradict each other)"]


def test_rate_keeps_to_its_timeout_and_says_when_it_came_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The timeout covers line logic alone too (before, only the search after it: a
    1000x1000 puzzle took 6 s under --timeout 3); a rating the limit stopped names no level."""
    import random
    import time

    from gridsolve.nonogram.formats import write_puzzle
    from gridsolve.nonogram.generate import random_grid
    from gridsolve.nonogram.model import puzzle_from_grid
    from gridsolve.nonogram.rate import rate
    from gridsolve.nonogram.engine import SearchLimits

    import gridsolve.nonogram.rate as rate_module

    puzzle = puzzle_from_grid(random_grid(400, 400, 0.5, random.Random(4)))
    timeouts: list[float | None] = []
    from gridsolve.nonogram.engine import analyse  # what rate.py calls

    def spy(p: Any, n: int, limits: SearchLimits, **kw: Any) -> Any:
        timeouts.append(limits.timeout)
        return analyse(p, n, limits, **kw)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rate_module, "analyse", spy)
        started = time.perf_counter()
        rating = rate(puzzle, SearchLimits(timeout=0.05))
    assert time.perf_counter() - started < 2 and rating.status == "unknown"
    assert timeouts and all(t is not None and t <= 0.05 for t in timeouts)
    path = tmp_path / "big.txt"
    path.write_text(write_puzzle(puzzle, "text"))
    code, out, _ = run(["nonogram", "rate", str(path), "--timeout", "0.05"], capsys)
    assert code == 0 and out.splitlines()[:3] == [
        "unique: unknown: the limit was reached first",
        "level: not known: the limit came before the rating ended",
        "score: not known"]
    # JSON says the same: null, not false (not proven is not "no")
    code, out, _ = run(["nonogram", "rate", str(path), "--timeout", "0.05", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["status"] == "unknown" and data["unique"] is None
    assert data["level"] is None and data["score"] is None
