"""``gridsolve calendar ...``: exact output and exit codes for good and bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gridsolve.cli import main
from gridsolve.errors import LimitReached
from gridsolve.tiling import calendar as cal
from gridsolve.tiling.presets import pieces_source

OCT_6 = """\
Oct 6: 7 solutions
 Y  Y  Y  Y  P  P
 N  N  Y Oct P  P
 Z  N  N  N  P  6  L
 Z  Z  Z  L  L  L  L
 V  U  Z  U  R  R  R
 V  U  U  U  R  R  R
 V  V  V
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["calendar", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_prints_a_picture(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "solve", "Oct 6") == (0, OCT_6, "")
    assert run(capsys, "solve", "2025-10-06") == (0, OCT_6, "")


def test_solve_all_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "Oct 6", "--all")
    assert code == 0 and out.count("solution ") == 7
    code, out, _ = run(capsys, "solve", "Oct 6", "--all", "--json")
    obj = json.loads(out)
    assert (obj["month"], obj["day"], obj["count"], len(obj["solutions"])) == (10, 6, 7, 7)
    assert obj["solutions"][0][1] == "NNY.PP#"
    assert len({tuple(s) for s in obj["solutions"]}) == 7
    assert obj["complete"] is True


def test_solve_all_prints_what_it_found_before_the_limit(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A listing cut short by its limit prints the solutions it found, then the error (exit
    1); with none found it is the error alone."""
    real = cal.solutions

    def three_then_stop(*args: Any, **kw: Any) -> Any:
        listing = real(*args, **kw)
        for _ in range(3):
            yield next(listing)
        raise LimitReached("search limit reached")
    monkeypatch.setattr(cal, "solutions", three_then_stop)
    code, out, err = run(capsys, "solve", "Oct 6", "--all")
    assert code == 1 and out.startswith("Oct 6: at least 3 solutions\n")
    assert out.count("solution ") == 3 and out.count("\u00b7") == 0
    assert err == ("gridsolve: error: search limit reached after listing 3 solutions; there "
                   "may be more\n")
    code, out, err = run(capsys, "solve", "Oct 6", "--all", "--json")
    obj = json.loads(out)
    assert code == 1 and (obj["count"], obj["complete"], len(obj["solutions"])) == (None, False, 3)
    assert len({tuple(s) for s in obj["solutions"]}) == 3

    def stop_at_once(*args: Any, **kw: Any) -> Any:
        raise LimitReached("search limit reached")
        yield  # a generator
    monkeypatch.setattr(cal, "solutions", stop_at_once)
    assert run(capsys, "solve", "Oct 6", "--all") == (
        1, "", "gridsolve: error: search limit reached before any solution was found\n")
    code, out, err = run(capsys, "solve", "Oct 6", "--all", "--json")
    obj = json.loads(out)
    assert code == 1 and (obj["count"], obj["complete"], obj["solutions"]) == (None, False, [])
    assert err == "gridsolve: error: search limit reached before any solution was found\n"
    # without --all the one solution's search stopping is the error alone
    assert run(capsys, "solve", "Oct 6") == (1, "", "gridsolve: error: search limit reached\n")


def test_hint(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "hint", "Oct 6", "--pieces", "2")
    assert code == 0
    assert out.splitlines()[0] == "Oct 6: 2 of 8 pieces shown (R, V)"
    assert out.count("\u00b7") == 41 - 11


@pytest.mark.heavy
def test_count(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 366 and sum(r["count"] for r in rows) == 24405
    assert rows[0] == {"month": 1, "day": 1, "count": 64}
    code, out, _ = run(capsys, "count", "--json", "--all-pairs")
    rows = json.loads(out)
    assert len(rows) == 372
    assert {"month": 2, "day": 30, "count": 34, "valid": False} in rows
    assert run(capsys, "count", "--date", "Oct 6") == (0, "Oct 6: 7\n", "")
    code, out, _ = run(capsys, "count")
    assert out.splitlines()[-1] == "366 dates, 24405 solutions in total; fewest 7, most 216"


def test_rank(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rank", "--top", "2")
    assert (code, out) == (0, "hardest (fewest solutions):\n  Oct 6                  7\n"
                              "  Apr 6                  8\neasiest (most solutions):\n"
                              "  Jan 25               216\n  Jan 20               195\n")


def test_pictures(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg, png = tmp_path / "s.svg", tmp_path / "s.png"
    code, _, _ = run(capsys, "solve", "Oct 6", "--svg", str(svg), "--png", str(png))
    assert code == 0 and svg.read_text().startswith("<svg") and png.read_bytes()[:4] == b"\x89PNG"
    heat = tmp_path / "year.svg"
    assert run(capsys, "heatmap", str(heat)) == (0, f"wrote {heat}\n", "")
    assert heat.read_text().count("<rect") > 366


@pytest.mark.parametrize("argv, message", [
    (["solve", "2025-02-30"], "2025-02-30 is not a date: day is out of range for month"),
    (["solve", "Foo 3"], "cannot read the date 'Foo 3': use YYYY-MM-DD, or a month name and a "
                         "day such as 'Oct 6' (weekday edition: 'Mon Oct 6')"),
    (["solve", "Oct 6", "--edition", "weekday"], "the weekday edition also leaves the weekday "
                                                 "open: give YYYY-MM-DD or a weekday, e.g. "
                                                 "'Mon Oct 6'"),
    (["heatmap", "year.txt"], "year.txt: choose a .png or .svg file name"),
])
def test_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert run(capsys, *argv) == (2, "", f"gridsolve: error: {message}\n")


def test_own_board_and_pieces(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = tmp_path / "my.board"
    pieces = tmp_path / "my.pieces"
    pieces.write_text(pieces_source("original"))
    board.write_text("Jan Feb Mar Apr May Jun\nJul Aug Sep Oct Nov Dec\n" + "\n".join(
        " ".join(str(d) if d <= 31 else "#" for d in range(r * 6 + 1, r * 6 + 7)) for r in range(6)))
    code, out, err = run(capsys, "solve", "Oct 6", "--board", str(board), "--pieces-file", str(pieces))
    assert code == 0 and err == "" and out.startswith("Oct 6: ") and " solution" in out
    code, out, err = run(capsys, "count", "--date", "Oct 6", "--board", str(board), "--pieces-file",
                         str(pieces))
    count = int(out.split()[-1])
    code, out, err = run(capsys, "solve", "Oct 6", "--all", "--json", "--board", str(board),
                         "--pieces-file", str(pieces))
    assert len(json.loads(out)["solutions"]) == count > 0
    board.write_text("Jan Feb\nJan 1\n")
    code, out, err = run(capsys, "solve", "Oct 6", "--board", str(board), "--pieces-file", str(pieces))
    assert (code, out, err) == (2, "", f"gridsolve: error: {board}:2: label 'Jan' is used twice "
                                       "(first on line 1)\n")


def test_area_mismatch(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from gridsolve.tiling.presets import board_source

    board = tmp_path / "b.board"
    pieces = tmp_path / "p.pieces"
    board.write_text(board_source("original"))
    pieces.write_text(pieces_source("original") + "\nX:\n##\n")
    assert run(capsys, "count", "--board", str(board), "--pieces-file", str(pieces)) == (
        2, "", "gridsolve: error: the board has 43 open cells but the pieces cover 43 plus 2 "
               "cells left open = 45\n")
    assert run(capsys, "count", "--board", str(board)) == (
        2, "", "gridsolve: error: give both --board and --pieces-file for a puzzle of your own\n")


def test_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "count", "--edition", "weekday", "--timeout", "0.05") == (
        1, "", "gridsolve: error: time limit reached while counting\n")
    code, _, err = run(capsys, "count", "--timeout", "-1")
    assert code == 2 and "must be a positive number, got -1" in err
