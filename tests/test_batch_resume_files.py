"""``batch --resume --out FILE`` given a FILE that is no batch output (fuzz audit): one line
naming the file and its first bad line, exit 2, no traceback, and the file left as it was.
Rows that file names or titles make awkward (a newline, a byte not in UTF-8) still resume."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gridsolve.batch import FIELDS, Row, read_rows
from gridsolve.cli import main
from gridsolve.errors import ParseError
from gridsolve.nonogram.formats import write_puzzle
from gridsolve.nonogram.model import puzzle_from_grid

HEADER = ",".join(FIELDS) + "\n"
ROW = Row("a.txt", 0, "a", 1, 1, "unique", 0.5, 1, "0123456789abcdef", "")
GOOD_JSON = json.dumps(ROW.__dict__) + "\n"
GOOD_CSV = "a.txt,0,a,1,1,unique,0.5,1,0123456789abcdef,\n"


def run_batch(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["batch", "--jobs", "1", "--no-progress", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def puzzles(tmp_path: Path) -> Path:
    root = tmp_path / "puzzles"
    root.mkdir()
    (root / "dot.txt").write_text(write_puzzle(puzzle_from_grid(("#",))))
    return root


#: (file name, its bytes, the line of the error, what the error says)
BAD_FILES = [
    ("bad.jsonl", b"\xff\xfe\x00garbage\n[1,2]\n", 1, "not UTF-8 text"),
    ("late.jsonl", GOOD_JSON.encode() * 2 + b'{"source": "caf\xe9"}\n', 3, "not UTF-8 text"),
    ("tail.jsonl", GOOD_JSON.encode() + b"\n\xff", 3, "not UTF-8 text"),
    ("surrogate.jsonl", b'"\xed\xa0\x80"\n', 1, "not UTF-8 text"),
    ("bad.csv", b"source,index\n\xff\n", 2, "not UTF-8 text"),
    ("cut.jsonl", b'{"source": \n', 1, "not a result row (not JSON: Expecting value at column 12)"),
    ("list.jsonl", GOOD_JSON.encode() + b"[1, 2]\n", 2, "not a result row (not a JSON object)"),
    ("number.jsonl", b"5\n", 1, "not a result row (not a JSON object)"),
    ("fields.jsonl", b'{"source": 5}\n', 1, "not a result row (no 'index' field)"),
    ("index.jsonl", GOOD_JSON.replace('"index": 0', '"index": null').encode(), 1,
     "not a result row ('index' is not a whole number)"),
    ("huge.jsonl", GOOD_JSON.replace('"index": 0', '"index": 1e400').encode(), 1,
     "not a result row ('index' is not a whole number)"),
    ("seconds.jsonl", GOOD_JSON.replace('"seconds": 0.5', '"seconds": "soon"').encode(), 1,
     "not a result row ('seconds' is not a number)"),
    ("deep.jsonl", b"[" * 100_000 + b"\n", 1, "not a result row (not JSON: nested too deeply)"),
    ("long.jsonl", b'{"index": ' + b"9" * 5000 + b"}\n", 1,
     "not a result row (not JSON: a number too long)"),
    ("header.csv", b"source,index\nfoo,1\n", 1, "not a gridsolve batch CSV (header differs)"),
    ("short.csv", (HEADER + GOOD_CSV + "a.txt,1\n").encode(), 3,
     "not a result row (2 fields, not 10)"),
    ("whole.csv", (HEADER + GOOD_CSV.replace(",0,a,", ",x,a,")).encode(), 2,
     "not a result row ('index' is not a whole number)"),
    ("notes.jsonl", b"my notes, not a batch's rows", 1, "not a result row"),
    ("notes.csv", b"my notes", 1, "not a result row"),
]


@pytest.mark.parametrize(("name", "data", "line", "why"), BAD_FILES, ids=[c[0] for c in BAD_FILES])
def test_a_file_that_is_no_output_is_one_line(capsys: pytest.CaptureFixture[str], puzzles: Path,
                                              tmp_path: Path, name: str, data: bytes, line: int,
                                              why: str) -> None:
    out = tmp_path / name
    out.write_bytes(data)
    code, stdout, err = run_batch(capsys, str(puzzles), "--resume", "--out", str(out))
    assert (code, stdout, err) == (2, "", f"gridsolve: error: {out}:{line}: {why}\n")
    assert out.read_bytes() == data  # neither cut nor appended to
    with pytest.raises(ParseError):
        read_rows(str(out), repair=True)
    assert out.read_bytes() == data


def test_the_fuzz_cases(capsys: pytest.CaptureFixture[str], puzzles: Path, tmp_path: Path) -> None:
    """The audit's three files: bad bytes on the first line, and on a CSV's second."""
    cases = {"resume_bad_utf8.jsonl": (b"\xff\xfe\x00garbage\n[1,2]\n{\"source\": 5}\n", 1),
             "res3.jsonl": (b"\xff\n", 1), "res4.csv": (b"source,index\n\xff\n", 2)}
    for name, (data, line) in cases.items():
        out = tmp_path / name
        out.write_bytes(data)
        code, _, err = run_batch(capsys, str(puzzles), "--resume", "--out", str(out))
        assert (code, err) == (2, f"gridsolve: error: {out}:{line}: not UTF-8 text\n")


@pytest.mark.parametrize(("suffix", "head"), [("jsonl", ""), ("csv", HEADER)])
def test_a_row_cut_short_is_still_repaired(tmp_path: Path, suffix: str, head: str) -> None:
    """A kill mid-row (even mid-character) leaves a tail that resuming cuts off."""
    good = GOOD_CSV if suffix == "csv" else GOOD_JSON
    out = tmp_path / f"r.{suffix}"
    complete = (head + good).encode()
    for cut in (b'{"sou', b'{"source": "caf\xc3', good.encode()[:-1]):
        out.write_bytes(complete + cut)
        assert read_rows(str(out), repair=True) == [ROW]
        assert out.read_bytes() == complete
    if suffix == "csv":  # killed while writing the header
        out.write_bytes(HEADER.encode()[:7])
        assert read_rows(str(out), repair=True) == []
        assert out.read_bytes() == b""


def test_awkward_file_names_resume(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A file name with a newline (a quoted CSV field over two lines) and one with a byte not
    in UTF-8 (a lone surrogate: written as a \\u escape in JSONL, as the text '\\udcff' in CSV)
    are rows that resume skips."""
    root = tmp_path / "odd"
    root.mkdir()
    text = write_puzzle(puzzle_from_grid(("#",)))
    (root / "new\nline.txt").write_text(text)
    try:
        (root / os.fsdecode(b"\xff.txt")).write_text(text)
    except (OSError, UnicodeError):  # a file system that takes UTF-8 names only
        pass
    found = len(list(root.iterdir()))
    for suffix in ("jsonl", "csv"):
        out = tmp_path / f"rows.{suffix}"
        assert run_batch(capsys, str(root), "--out", str(out))[0] == 0
        out.read_bytes().decode("utf-8")  # the file is UTF-8
        assert len(read_rows(str(out))) == found
        code, _, err = run_batch(capsys, str(root), "--resume", "--out", str(out))
        assert code == 0
        # (CSV has no escapes: the name went as '\udcff', which resume takes as that name)
        assert f"done: 0 puzzles (none solved); {found} skipped" in err


def test_summary_shows_names_and_titles_escaped(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    """The slowest puzzles listed on stderr: no raw newline or ESC from a file name or title."""
    path = tmp_path / "a\x1b[2Jb.json"
    path.write_text(json.dumps({"format": "gridsolve-nonogram", "version": 1, "rows": [[1]],
                                "cols": [[1]], "title": "t\x1b]0;pwned\x07"}))
    code, _, err = run_batch(capsys, str(path))
    assert code == 0 and "\x1b" not in err and "\x07" not in err
    assert f"{tmp_path}/a\\x1b[2Jb.json #0 (t\\x1b]0;pwned\\x07)" in err


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_resume_solves_again_the_rows_a_dead_worker_failed(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, suffix: str) -> None:
    """A dead worker fails every task in flight; their error rows are taken out and solved
    again on --resume, once each (found by a fuzz audit: they stayed errors for good)."""
    root = tmp_path / "p"
    root.mkdir()
    for name in ("a", "b", "c"):
        (root / f"{name}.txt").write_text(write_puzzle(puzzle_from_grid(("#.", ".#"))))
    out = tmp_path / f"out{suffix}"
    assert run_batch(capsys, str(root), "--out", str(out))[0] == 0
    rows = read_rows(str(out))
    failed = Row(rows[1].source, 0, "b", 0, 0, "error", 0.0, 0, "",
                 "worker failed: BrokenProcessPool: A process in the process pool was "
                 "terminated abruptly")
    bad = Row(rows[2].source, 0, "c", 0, 0, "error", 0.0, 0, "", "c.txt:1: a real error")
    from gridsolve.batch import rewrite_rows
    rewrite_rows(str(out), [rows[0], failed, bad])
    code, _, err = run_batch(capsys, str(root), "--out", str(out), "--resume")
    assert code == 0, err
    again = read_rows(str(out))
    assert [(r.source, r.status) for r in again] == [
        (rows[0].source, "multiple"), (rows[2].source, "error"), (rows[1].source, "multiple")]


def test_a_file_named_twice_is_solved_once(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder and a file in it, or x.txt and ./x.txt, name one file: one row for it."""
    (tmp_path / "f").mkdir()
    (tmp_path / "f" / "a.txt").write_text(write_puzzle(puzzle_from_grid(("#",))))
    (tmp_path / "x.txt").write_text(write_puzzle(puzzle_from_grid(("#",))))
    monkeypatch.chdir(tmp_path)
    code, out, _ = run_batch(capsys, "f", "f/a.txt", "f", "x.txt", "./x.txt")
    assert code == 0
    assert [json.loads(line)["source"] for line in out.splitlines()] == ["f/a.txt", "x.txt"]


def test_a_puzzle_that_kills_its_worker_again_is_not_retried_again(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Retried once: a task of retried puzzles that fails again writes "worker failed again",
    which --resume leaves (a puzzle that kills every worker would stop every resume)."""
    import gridsolve.batch as batch_module
    import gridsolve.batch.run as run_module  # run_tasks looks solve_task up there
    root = tmp_path / "p"
    root.mkdir()
    (root / "a.txt").write_text(write_puzzle(puzzle_from_grid(("#.", ".#"))))
    out = tmp_path / "out.jsonl"
    killer = Row(str(root / "a.txt"), 0, "a", 0, 0, "error", 0.0, 0, "",
                 "worker failed: BrokenProcessPool: terminated abruptly")
    from gridsolve.batch import rewrite_rows
    rewrite_rows(str(out), [killer])
    solve = batch_module.solve_task

    def dies_on_retries(task: batch_module.Task, *work: list[int] | None) -> list[Row]:
        if task.again:
            raise RuntimeError("the pool died")
        return solve(task, *work)
    monkeypatch.setattr(run_module, "solve_task", dies_on_retries)
    assert run_batch(capsys, str(root), "--out", str(out), "--resume")[0] == 0
    (row,) = read_rows(str(out))
    assert row.error == "worker failed again: RuntimeError: the pool died"
    monkeypatch.setattr(run_module, "solve_task", solve)
    code, _, err = run_batch(capsys, str(root), "--out", str(out), "--resume")
    assert code == 0 and "1 skipped as already done" in err
    assert read_rows(str(out)) == [row]
