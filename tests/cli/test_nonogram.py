"""The command line: exact output and exit codes, for good and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridsolve.cli import main

HEART = "2 2\n4 4\n9\n9\n7\n5\n3\n1\n--\n3\n5\n6\n6\n6\n6\n6\n5\n3\n"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def write(tmp_path: Path):  # type: ignore[no-untyped-def]
    def _write(text: str, name: str = "p.txt") -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)
    return _write


def test_solve_prints_grid_and_status(capsys, write) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "nonogram", "solve", write("1 1\n3\n--\n2\n1\n2\n"))
    assert (code, err) == (0, "")
    assert out == "■□■\n■■■\n\nstatus: unique solution\n"


def test_solve_ascii(capsys, write) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "nonogram", "solve", "--ascii", write(HEART))
    assert code == 0
    assert out.splitlines()[:3] == [".##...##.", "####.####", "#########"]
    assert out.endswith("status: unique solution\n")


def test_solve_json(capsys, write) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "nonogram", "solve", "--json", write("1 1\n3\n--\n2\n1\n2\n"))
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"status", "width", "height", "solutions", "seconds", "nodes", "exhausted"}
    assert (data["status"], data["width"], data["height"]) == ("unique", 3, 2)
    assert data["solutions"] == [["#.#", "###"]]
    assert data["nodes"] == 1 and data["seconds"] >= 0 and data["exhausted"] is True


def test_multiple_solutions(capsys, write) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "nonogram", "solve", "--ascii", write("1\n1\n--\n1\n1\n"))
    assert code == 0
    a, b = "#.\n.#\n", ".#\n#.\n"  # in the engine's order, whichever it is
    assert out in (f"solution 1:\n{a}\nsolution 2:\n{b}\nstatus: more than one solution\n",
                   f"solution 1:\n{b}\nsolution 2:\n{a}\nstatus: more than one solution\n")


def test_max_solutions_counts(capsys, write) -> None:  # type: ignore[no-untyped-def]
    path = write("1\n1\n1\n--\n1\n1\n1\n")
    code, out, _ = run(capsys, "nonogram", "solve", "--json", "--max-solutions", "100", path)
    assert code == 0
    data = json.loads(out)
    assert data["status"] == "multiple" and len(data["solutions"]) == 6


def test_no_solution_exit_1(capsys, write) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "nonogram", "solve", write("2\n0\n--\n1\n0\n1\n"))
    assert (code, out, err) == (1, "status: no solution\n", "")


def test_limit_exit_1(capsys, write) -> None:  # type: ignore[no-untyped-def]
    rows = "1\n" * 9
    code, out, _ = run(capsys, "nonogram", "solve", "--json", "--max-nodes", "1",
                       write(rows + "--\n" + rows))
    assert code == 1
    assert json.loads(out)["status"] == "unknown"


def test_stdin(capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import io
    import sys
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1\n--\n1\n")))
    code, out, _ = run(capsys, "nonogram", "solve", "--ascii", "-")
    assert (code, out) == (0, "#\n\nstatus: unique solution\n")


@pytest.mark.parametrize("text,line,why", [
    ("1 x\n--\n1\n", 1, "'x' is not a number"),
    ("1\n-1\n--\n1\n", 2, "clue numbers cannot be negative, got -1"),
    ("3\n--\n1\n1\n", 1, "row 1: clue 3 needs 3 cells but the row has 2"),
    ("1\n1\n--\n1 1 1\n", 4, "column 1: clue 1 1 1 needs 5 cells but the column has 2"),
    ("1\n1\n--\n1\n", 3, "row clues fill 2 cells but column clues fill 1"),
    ("1\n2\n", None, "no '--' line separating row clues from column clues"),
    ("", None, "empty file: no clues found"),
    ("# only a comment\n\n", None, "empty file: no clues found"),
    ("1\n--\n1\n--\n1\n", 4, "a second separator line: one puzzle per file"),
    ("1 0\n--\n1\n", 1, "row 1: 0 may only stand alone, for an empty line"),
])
def test_bad_input_one_line_exit_2(capsys, write, text, line, why) -> None:  # type: ignore[no-untyped-def]
    path = write(text)
    code, out, err = run(capsys, "nonogram", "solve", path)
    where = f"{path}:{line}" if line else path
    assert (code, out) == (2, "")
    assert err == f"gridsolve: error: {where}: {why}\n"


def test_missing_file(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = str(tmp_path / "nope.txt")
    code, out, err = run(capsys, "nonogram", "solve", path)
    assert (code, out) == (2, "")
    assert err == f"gridsolve: error: {path}: No such file or directory\n"


def test_binary_file(capsys, write, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bin.txt"
    path.write_bytes(b"\xff\xfe\x00garbage")
    code, _, err = run(capsys, "nonogram", "solve", str(path))
    assert code == 2 and err.count("\n") == 1 and "not UTF-8" in err


def test_huge_numbers_refused(capsys, write) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run(capsys, "nonogram", "solve", write("99999999999999999999\n--\n1\n"))
    assert code == 2 and err.count("\n") == 1
    assert ":1: '99999999999999999999' is too large a number (more than 9 digits)" in err


def test_usage_errors_exit_2(capsys, write) -> None:  # type: ignore[no-untyped-def]
    path = write("1\n--\n1\n")
    assert run(capsys, "nonogram", "solve", path, "--max-solutions", "0")[0] == 2
    assert run(capsys, "nonogram", "solve", path, "--timeout", "-1")[0] == 2
    assert run(capsys, "nonogram", "solve", path, "--timeout", "nan")[0] == 2
    assert run(capsys, "nonogram")[0] == 2


def test_verbose_shows_traceback(write) -> None:  # type: ignore[no-untyped-def]
    from gridsolve.errors import ParseError
    with pytest.raises(ParseError):
        main(["-v", "nonogram", "solve", write("x\n--\n1\n")])


def test_examples_are_unique(capsys) -> None:  # type: ignore[no-untyped-def]
    examples = sorted((Path(__file__).resolve().parents[2] / "src/gridsolve/examples").glob("*.txt"))
    assert len(examples) >= 4
    for path in examples:
        code, out, _ = run(capsys, "nonogram", "solve", str(path))
        assert code == 0 and out.endswith("status: unique solution\n"), path


@pytest.mark.parametrize("where", ["import", "run"])
def test_ctrl_c_is_one_line_exit_130(capsys, monkeypatch, write, where) -> None:  # type: ignore[no-untyped-def]
    """Ctrl-C while a family's modules are imported, or while a command runs: one line, 130."""
    import importlib

    from gridsolve.cli import nonogram

    def interrupt(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt
    if where == "import":
        monkeypatch.setattr(importlib, "import_module", interrupt)
    else:
        monkeypatch.setattr(nonogram, "analyse", interrupt)
    assert main(["nonogram", "solve", write("1\n--\n1\n"), "--jobs", "1"]) == 130
    out, err = capsys.readouterr()
    assert err == "gridsolve: interrupted\n" and "Traceback" not in out + err
