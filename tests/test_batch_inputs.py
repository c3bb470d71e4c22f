"""Issue 21: one unreadable file is an error row and the batch goes on.

A JSON clue of 5,000 digits and a superscript digit in a .non, .cwd or .dat file ended a whole
batch with a traceback from discovery and no rows. Any reader failure, even one no reader
foresaw, is now a row naming the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridsolve.cli import main
from gridsolve.nonogram.formats import text

BROKEN = {
    "big.json": ('{"format": "gridsolve-nonogram", "version": 1,\n"rows": [[' + "1" * 5000
                 + ']],\n"cols": [[1]]}\n'),
    "sup.non": "width ²\nheight 1\nrows\n1\ncolumns\n1\n",
    "sup.cwd": "²\n1\n1\n\n1\n",
    "sup.dat": "data;\nparam m := 1;\nparam n := ²;\nparam row : 1 :=\n1 1\n;\n"
               "param col : 1 :=\n1 1\n;\nend;\n",
}
LINES = {"big.json": 2, "sup.non": 1, "sup.cwd": 1, "sup.dat": 3}


def _folder(root: Path) -> Path:
    root.mkdir()
    for name, content in BROKEN.items():
        (root / name).write_text(content, encoding="utf-8")
    (root / "good.txt").write_text("1\n--\n1\n")
    return root


def _rows(out: Path) -> dict[str, dict[str, object]]:
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    return {Path(str(r["source"])).name: r for r in rows}


@pytest.mark.heavy
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_unreadable_files_are_rows(tmp_path: Path, capsys, jobs: str) -> None:  # type: ignore[no-untyped-def]
    folder = _folder(tmp_path / "in")
    out = tmp_path / "rows.jsonl"
    assert main(["batch", str(folder), "--jobs", jobs, "--no-progress", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("done: 5 puzzles (unique 1, error 4)"), err
    rows = _rows(out)
    assert rows["good.txt"]["status"] == "unique"
    for name, line in LINES.items():
        assert rows[name]["status"] == "error"
        assert str(rows[name]["error"]).startswith(f"{folder / name}:{line}: "), rows[name]


@pytest.mark.parametrize("failure", [ValueError("bad"), RecursionError("deep"),
                                     MemoryError(), UnicodeError("odd")])
def test_a_reader_failing_any_way_is_a_row(tmp_path: Path, capsys, monkeypatch,  # type: ignore[no-untyped-def]
                                           failure: Exception) -> None:
    def broken(*args: object) -> None:
        raise failure
    monkeypatch.setattr(text, "parse", broken)
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("1\n--\n1\n")
    (folder / "b.non").write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    out = tmp_path / "rows.jsonl"
    assert main(["batch", str(folder), "--jobs", "1", "--no-progress", "--out", str(out)]) == 0
    rows = _rows(out)
    assert rows["b.non"]["status"] == "unique"
    why = f"{type(failure).__name__}: {failure}".rstrip(": ")
    assert rows["a.txt"]["error"] == f"{folder / 'a.txt'}: cannot read the file ({why})"
