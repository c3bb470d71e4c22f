"""``gridsolve nonogram hint``: exact output, exit codes, JSON and bad positions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridsolve.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "src" / "gridsolve" / "examples"



def test_cli_hint_on_the_empty_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nonogram", "hint", str(EXAMPLES / "heart.txt"), "--ascii"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("line: row 2 (clue 4 4): columns 1-4 are filled: the first block (4)")
    assert "4 4 # # # # . # # # #" in out


def test_cli_hint_on_a_solved_grid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gridsolve.nonogram.engine import analyse
    from gridsolve.nonogram.formats import bw_only, read_puzzle
    heart = str(EXAMPLES / "heart.txt")
    pos = tmp_path / "pos.txt"
    pos.write_text("\n".join(analyse(bw_only(read_puzzle(heart), "x")).solutions[0]) + "\n")
    assert main(["nonogram", "hint", heart, "--grid", str(pos)]) == 0
    assert capsys.readouterr().out == "solved: every row and column matches its clue\n"


def test_cli_check_lists_the_wrong_cells(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    pos = tmp_path / "pos.txt"
    pos.write_text("\n".join(["?" * 9] * 7 + ["x??#?????"]) + "\n")
    heart = str(EXAMPLES / "heart.txt")
    assert main(["nonogram", "hint", heart, "--grid", str(pos)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("mistake: 1 of the cells set does not match the solution")
    assert "--check lists them" in out and "r8c4" not in out
    pos.write_text("\n".join(["?" * 9] * 7 + ["x???#???#"]) + "\n")
    assert main(["nonogram", "hint", heart, "--grid", str(pos), "--check"]) == 1
    out = capsys.readouterr().out
    assert "row 8 (clue 1) cannot fit" in out
    assert "wrong cells: r8c9 (set filled)" in out
    assert main(["nonogram", "hint", heart, "--grid", str(pos), "--json", "--check"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "mistake" and data["wrong"] == [{"row": 7, "col": 8}]


def test_cli_json_step_and_bad_position(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(["?" * 9] * 8))
    assert main(["nonogram", "hint", str(EXAMPLES / "heart.txt"), "--grid", str(pos),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "line" and data["line"] == 1 and data["clue"] == [4, 4]
    assert {"row": 1, "col": 4, "value": "."} in data["cells"]
    pos.write_text("#\n")
    assert main(["nonogram", "hint", str(EXAMPLES / "heart.txt"), "--grid", str(pos)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"gridsolve: error: {pos}:1: row 1 has 1 cells but the puzzle is 9 wide")
