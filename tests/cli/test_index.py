"""Multi-puzzle files: solve, hint, show, rate, check (and explain) pick one with --index N or
FILE#N; without it they say how many the file holds and how to pick, on one line (54.11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridsolve.cli import main

#: SPOJ: two puzzles, a 3x2 (rows 1 1 / 3) and a 1x1 (one filled cell)
TWO = "2\n2 3\n1 1 0\n3 0\n2 0\n1 0\n2 0\n1 1\n1 0\n1 0\n"
COMMANDS = {
    "solve": ["--method", "native", "--ascii"],
    "hint": [],
    "show": ["--ascii"],
    "rate": ["--json"],
    "check": [],
    "explain": ["--ascii"],
}


@pytest.fixture
def two(tmp_path: Path) -> str:
    path = tmp_path / "two.txt"
    path.write_text(TWO, encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", COMMANDS)
def test_without_an_index_the_count_and_how_to_pick(command: str, two: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "nonogram", command, two, *COMMANDS[command])
    assert (code, out) == (2, "")
    assert err == (f"gridsolve: error: {two}: the file holds 2 puzzles: pick one with --index N "
                   f"(1 to 2) or {two}#N\n")


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("pick", ["--index", "#"])
def test_index_or_hash_picks_the_puzzle(command: str, pick: str, two: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    argv = [two, "--index", "2"] if pick == "--index" else [two + "#2"]
    code, out, err = run(capsys, "nonogram", command, *argv, *COMMANDS[command])
    assert code == 0, err
    if command == "solve":
        assert out == "#\n\nstatus: unique solution\n"
    elif command == "rate":
        assert (json.loads(out)["width"], json.loads(out)["height"]) == (1, 1)
    elif command == "show":
        assert out.startswith("1x1\n")
    elif command == "check":
        assert out.endswith("no problems found: the solution is unique\n")
    elif command == "explain":
        assert out.endswith("\n1 #\n") and "row 1, clue 1" in out
    else:
        assert out.startswith("line: row 1 (clue 1): column 1 is filled")


def test_the_first_puzzle_and_past_the_end(two: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "nonogram", "solve", two + "#1", "--ascii", "--method", "native")
    assert (code, out) == (0, "#.#\n###\n\nstatus: unique solution\n")
    code, _, err = run(capsys, "nonogram", "solve", two, "--index", "3")
    assert (code, err) == (2, f"gridsolve: error: {two}: --index 3: the file holds 2 puzzles\n")
    code, _, err = run(capsys, "nonogram", "show", two + "#1", "--index", "2")
    assert code == 2 and "name different puzzles" in err


def test_a_file_named_with_a_hash_is_that_file(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.txt#2"
    path.write_text("1 1\n3\n--\n2\n1\n2\n", encoding="utf-8")
    code, out, _ = run(capsys, "nonogram", "solve", str(path), "--ascii", "--method", "native")
    assert (code, out) == (0, "#.#\n###\n\nstatus: unique solution\n")


def test_convert_takes_file_hash_n_as_index(two: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "one.nin"
    code, _, err = run(capsys, "nonogram", "convert", two + "#2", str(out))
    assert (code, err) == (0, "")
    assert out.read_text(encoding="utf-8") == "1 1\n1\n1\n"
