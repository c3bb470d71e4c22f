"""Issue 21: the command line, given hostile files, dates and numbers, exits 0 or 1 with an
answer, or 2 with exactly one line on stderr; never a traceback. A batch over hostile files
always finishes, one row per puzzle or unreadable file."""

from __future__ import annotations

import io
import json
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolve.batch import STATUSES
from gridsolve.cli import main
from gridsolve.nonogram.formats import FORMATS
from tests.fuzz import FAST_FEW, NUMBERS, SLOW, TEXT, soup
from tests.tiling.test_fuzz_tiling import DATES, tiling_text

SUFFIXES = sorted({ext for mod in FORMATS.values() for ext in mod.EXTENSIONS} | {""})
#: Small budgets: a hostile file that happens to be a hard puzzle stops at once.
QUICK = ["--timeout", "1", "--max-nodes", "500"]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def answers_or_one_line(code: int, err: str) -> None:
    """Exit 0/1 with no traceback, or 2 with one 'gridsolve: error:' line."""
    assert "Traceback" not in err, err
    assert code in (0, 1, 2), (code, err)
    if code == 2:
        assert err.startswith("gridsolve: error: ") and err.count("\n") == 1, err


def check_solve(text: str, suffix: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"p{suffix}"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        answers_or_one_line(*run("nonogram", "solve", str(path), *QUICK)[::2])


def check_calendar(date: str, board: str, pieces: str) -> None:
    answers_or_one_line(*run("calendar", "solve", "--timeout", "1", "--", date)[::2])
    with tempfile.TemporaryDirectory() as folder:
        b, p = Path(folder) / "b.txt", Path(folder) / "p.txt"
        b.write_text(board, encoding="utf-8")
        p.write_text(pieces, encoding="utf-8")
        answers_or_one_line(*run("calendar", "solve", "--timeout", "1", "--board", str(b),
                                 "--pieces-file", str(p), "--", date)[::2])


def check_batch(texts: list[tuple[str, str]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for k, (text, suffix) in enumerate(texts):
            (Path(folder) / f"f{k}{suffix or '.txt'}").write_text(text, encoding="utf-8")
        code, out, err = run("batch", folder, "--jobs", "1", "--no-progress", *QUICK)
        assert code == 0 and "Traceback" not in err, err
        rows = [json.loads(line) for line in out.splitlines()]
        assert {Path(r["source"]).name for r in rows} == {f"f{k}{s or '.txt'}"
                                                          for k, (_, s) in enumerate(texts)}
        for row in rows:
            assert row["status"] in STATUSES
            assert (row["status"] == "error") == bool(row["error"]) and "\n" not in row["error"]


@pytest.mark.heavy
@FAST_FEW
@given(text=TEXT, suffix=st.sampled_from(SUFFIXES))
def test_solve_never_crashes(text: str, suffix: str) -> None:
    check_solve(text, suffix)


@FAST_FEW
@given(date=DATES, board=tiling_text(), pieces=tiling_text())
def test_calendar_never_crashes(date: str, board: str, pieces: str) -> None:
    check_calendar(date, board, pieces)


@FAST_FEW
@given(option=st.sampled_from(["--timeout", "--max-nodes", "--max-solutions"]),
       value=st.sampled_from(NUMBERS) | soup(4))
def test_numeric_options_never_crash(option: str, value: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.txt"
        path.write_text("1\n--\n1\n")
        code, _, err = run("nonogram", "solve", str(path), f"{option}={value}")
    assert code in (0, 1, 2) and "Traceback" not in err, err  # 1: a limit this small hit


@FAST_FEW
@given(texts=st.lists(st.tuples(TEXT, st.sampled_from(SUFFIXES)), min_size=1, max_size=4))
def test_batch_never_loses_the_run(texts: list[tuple[str, str]]) -> None:
    check_batch(texts)


@pytest.mark.slow
@settings(SLOW, max_examples=500)
@given(text=TEXT, suffix=st.sampled_from(SUFFIXES), date=DATES, board=tiling_text(),
       pieces=tiling_text())
def test_cli_never_crashes_long(text: str, suffix: str, date: str, board: str,
                                pieces: str) -> None:
    check_solve(text, suffix)
    check_calendar(date, board, pieces)
    check_batch([(text, suffix)])
