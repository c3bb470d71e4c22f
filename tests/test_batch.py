"""Batch runs: rows for good, bad, unsolvable and multi-puzzle files; the same rows from a
process pool and a Dask cluster; resume after a kill; CSV and JSONL; Ctrl-C; usage errors."""

from __future__ import annotations

import csv
import hashlib
import json
import sys
import time
from pathlib import Path

import pytest

from gridsolve import batch
from gridsolve.batch import Row, comparable, read_rows
from gridsolve.cli import main
from gridsolve.nonogram.formats import tournament, write_puzzle
from gridsolve.nonogram.model import WHITE, Colour, colour_puzzle_from_grid, puzzle_from_grid

#: Pictures with a unique solution (checked by the expected 'unique' status).
SMILE = (".#.#.", ".#.#.", ".....", "#...#", ".###.")
ARROW = ("..#..", ".###.", "#####", "..#..", "..#..")
BOX = ("####", "#..#", "#..#", "####")
CROSS = ("..#..", "..#..", "#####", "..#..", "..#..")
#: A colour picture (red 'r', blue 'b'): its row is hashed as these palette symbols.
FLAG = ("rr.", "rb.", ".bb")
FLAG_PALETTE = (WHITE, Colour("red", (255, 0, 0), "r"), Colour("blue", (0, 0, 255), "b"))


def digest(grid: tuple[str, ...]) -> str:
    """The documented hash, computed here independently of gridsolve."""
    return hashlib.sha256("\n".join(grid).encode()).hexdigest()[:16]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """good, bad, unsolvable, ambiguous, colour and multi-puzzle files, one in a sub-folder."""
    root = tmp_path / "puzzles"
    (root / "sub").mkdir(parents=True)
    (root / "smile.txt").write_text(write_puzzle(puzzle_from_grid(SMILE)))
    (root / "sub" / "arrow.non").write_text(write_puzzle(puzzle_from_grid(ARROW), "non"))
    (root / "bad.txt").write_text("3 4\nnot a clue\n")
    (root / "none.txt").write_text("1\n1\n3\n--\n1\n2\n2\n")  # valid clues, no picture fits
    (root / "two.txt").write_text("1\n1\n--\n1\n1\n")  # two diagonals
    (root / "set.txt").write_text(tournament.dump_many(
        [puzzle_from_grid(BOX), puzzle_from_grid(CROSS)]))
    (root / "flag.json").write_text(write_puzzle(colour_puzzle_from_grid(FLAG, FLAG_PALETTE),
                                                 "json"))
    (root / "README.md").write_text("not a puzzle: skipped when a folder is walked\n")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "x.txt").write_text("garbage")
    return root


def expected(root: Path) -> dict[tuple[str, int], tuple[str, str, int, int]]:
    """(source, index) -> (status, solution hash, width, height)."""
    return {
        (str(root / "bad.txt"), 0): ("error", "", 0, 0),
        (str(root / "flag.json"), 0): ("unique", digest(FLAG), 3, 3),
        (str(root / "none.txt"), 0): ("none", "", 3, 3),
        (str(root / "set.txt"), 0): ("unique", digest(BOX), 4, 4),
        (str(root / "set.txt"), 1): ("unique", digest(CROSS), 5, 5),
        (str(root / "smile.txt"), 0): ("unique", digest(SMILE), 5, 5),
        (str(root / "sub" / "arrow.non"), 0): ("unique", digest(ARROW), 5, 5),
        (str(root / "two.txt"), 0): ("multiple", digest((".#", "#.")), 2, 2),  # either picture
    }


def run_batch(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["batch", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def by_key(rows: list[Row]) -> dict[tuple[str, int], Row]:
    keyed = {r.key: comparable(r) for r in rows}
    assert len(keyed) == len(rows), "a puzzle has more than one row"
    return keyed


def test_rows_for_good_bad_unsolvable_and_multi_puzzle_files(capsys, folder, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "r.jsonl"
    code, stdout, err = run_batch(capsys, str(folder), "--jobs", "1", "--out", str(out))
    assert (code, stdout) == (0, "")
    rows = read_rows(str(out))
    got = {r.key: (r.status, r.solution_hash, r.width, r.height) for r in rows}
    want = expected(folder)
    two = (str(folder / "two.txt"), 0)
    assert got[two][1] in (digest(("#.", ".#")), digest((".#", "#.")))
    got[two] = want[two]
    assert got == want
    bad = next(r for r in rows if r.status == "error")
    assert bad.error == f"{folder / 'bad.txt'}: no '--' line separating row clues from column clues"
    assert [r.label for r in rows if r.source.endswith("set.txt")] == ["1", "2"]
    assert all(r.error == "" for r in rows if r.status != "error")
    assert "done: 8 puzzles (unique 5, multiple 1, none 1, error 1)" in err
    assert "slowest:" in err and "solver CPU" in err


@pytest.mark.heavy
def test_process_pool_and_csv_give_the_same_rows(capsys, folder, tmp_path) -> None:  # type: ignore[no-untyped-def]
    one, two = tmp_path / "one.jsonl", tmp_path / "two.csv"
    assert run_batch(capsys, str(folder), "--jobs", "1", "--out", str(one))[0] == 0
    assert run_batch(capsys, str(folder), "--jobs", "2", "--chunk", "1",
                     "--out", str(two))[0] == 0
    header = two.read_text().splitlines()[0]
    assert header == "source,index,label,width,height,status,seconds,nodes,solution_hash,error"
    assert len(list(csv.reader(two.open()))) == 1 + 8
    assert by_key(read_rows(str(two))) == by_key(read_rows(str(one)))


@pytest.mark.heavy
def test_dask_local_cluster_gives_identical_rows(capsys, folder, tmp_path) -> None:  # type: ignore[no-untyped-def]
    distributed = pytest.importorskip("distributed")
    local, remote = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    assert run_batch(capsys, str(folder), "--jobs", "1", "--out", str(local))[0] == 0
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        code, _, err = run_batch(capsys, str(folder), "--scheduler", cluster.scheduler_address,
                                 "--out", str(remote))
    assert code == 0, err
    assert by_key(read_rows(str(remote))) == by_key(read_rows(str(local)))


@pytest.mark.parametrize("address, why", [
    ("bogus", "missing port number"), ("tcp://127.0.0.1", "missing port number"),
    ("http://127.0.0.1:8786", "no http:// transport"), ("tls://127.0.0.1:8786", "not tls://"),
    ("tcp://127.0.0.1:99999", "port 99999 is out of range"), ("inproc://x", "inside this process"),
])
def test_a_bad_scheduler_address_is_one_line_at_once(capsys, folder, address, why) -> None:  # type: ignore[no-untyped-def]
    """Addresses no Dask client can reach (distributed raised deep inside its client, and the
    process then hung at exit) are refused before any connection is tried."""
    pytest.importorskip("distributed")
    started = time.perf_counter()
    code, _, err = run_batch(capsys, str(folder), "--scheduler", address)
    assert code == 2 and err.count("\n") == 1 and why in err and address in err
    assert time.perf_counter() - started < 10


def test_missing_dask_names_the_extra(capsys, folder, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(sys.modules, "distributed", None)
    code, _, err = run_batch(capsys, str(folder), "--scheduler", "tcp://127.0.0.1:1")
    assert code == 2
    assert err == "gridsolve: error: dask is not installed: pip install 'gridsolve[dask]'\n"


@pytest.mark.heavy
@pytest.mark.parametrize("suffix", ["jsonl", "csv"])
def test_resume_after_a_kill_adds_no_duplicates(capsys, folder, tmp_path, suffix) -> None:  # type: ignore[no-untyped-def]
    full, out = tmp_path / f"full.{suffix}", tmp_path / f"out.{suffix}"
    assert run_batch(capsys, str(folder), "--jobs", "1", "--out", str(full))[0] == 0
    lines = full.read_text().splitlines(keepends=True)
    keep = 4 if suffix == "csv" else 3  # the CSV header, then three rows
    out.write_text("".join(lines[:keep]) + lines[keep][:17])  # killed in mid-row
    code, _, err = run_batch(capsys, str(folder), "--jobs", "2", "--resume", "--out", str(out))
    assert code == 0
    assert "3 skipped as already done" in err and "done: 5 puzzles" in err
    rows = read_rows(str(out))
    assert by_key(rows) == by_key(read_rows(str(full)))
    assert out.read_text().count("\n") == len(lines)
    code, _, err = run_batch(capsys, str(folder), "--resume", "--out", str(out))
    assert (code, len(read_rows(str(out)))) == (0, 8)
    assert "done: 0 puzzles" in err and "8 skipped" in err


def test_jsonl_on_stdout_by_default(capsys, folder) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run_batch(capsys, str(folder / "smile.txt"), "--jobs", "1")
    assert code == 0
    assert json.loads(out) == {
        "source": str(folder / "smile.txt"), "index": 0, "label": "smile", "width": 5,
        "height": 5, "status": "unique", "seconds": json.loads(out)["seconds"], "nodes": 1,
        "solution_hash": digest(SMILE), "error": ""}


def test_limit_reached_is_a_row(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "two.txt").write_text("1\n1\n--\n1\n1\n")
    code, out, _ = run_batch(capsys, str(tmp_path / "two.txt"), "--jobs", "1",
                             "--method", "native", "--max-solutions", "3", "--max-nodes", "1")
    row = json.loads(out)
    assert (code, row["status"], row["error"]) == (0, "unknown", "")


def test_ctrl_c_flushes_rows_and_exits_130(capsys, folder, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def interrupted(executor, tasks, window, emit, stop=None):  # type: ignore[no-untyped-def]
        emit(batch.solve_task(next(iter(tasks))))
        raise KeyboardInterrupt
    monkeypatch.setattr(batch, "run_tasks", interrupted)
    out = tmp_path / "r.jsonl"
    code, _, err = run_batch(capsys, str(folder), "--jobs", "2", "--out", str(out))
    assert code == 130
    assert len(read_rows(str(out))) == 2  # the bad file's row, then the first task's
    assert err.startswith("interrupted: 2 puzzles") and "--resume" in err


def test_usage_errors_exit_2(capsys, folder, tmp_path) -> None:  # type: ignore[no-untyped-def]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run_batch(capsys, str(empty)) == (2, "", f"gridsolve: error: no puzzle files found "
                                                    f"under {empty}\n")
    code, _, err = run_batch(capsys, str(folder), "--out", str(tmp_path / "no" / "r.jsonl"))
    assert code == 2 and "does not exist" in err
    code, _, err = run_batch(capsys, str(folder), "--resume")
    assert code == 2 and "--resume needs --out" in err
    junk = tmp_path / "junk.jsonl"
    junk.write_text("hello\n")
    code, _, err = run_batch(capsys, str(folder), "--resume", "--out", str(junk))
    assert code == 2 and err.startswith(f"gridsolve: error: {junk}:1: not a result row")


def test_missing_file_is_an_error_row(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run_batch(capsys, str(tmp_path / "gone.txt"), "--jobs", "1")
    row = json.loads(out)
    assert (code, row["status"], row["index"]) == (0, "error", 0)
    assert row["error"] == f"{tmp_path / 'gone.txt'}: No such file or directory"


def test_tasks_carry_paths_and_indexes_in_chunks(folder: Path) -> None:
    options = batch.Options()
    found = list(batch.discover([str(folder)], options))
    tasks = list(batch.plan(found, options, chunk=1, done=frozenset({(str(folder / "set.txt"), 0)})))
    assert [(Path(t.source).name, t.indexes) for t in tasks] == [
        ("flag.json", (0,)), ("none.txt", (0,)), ("set.txt", (1,)), ("smile.txt", (0,)), ("arrow.non", (0,)),
        ("two.txt", (0,))]
    assert batch.auto_chunk(1_000_000, 8) == 256 and batch.auto_chunk(10, 2) == 1


@pytest.mark.heavy
def test_shared_corpus_batch_matches_stored_goals(capsys, puzzles_dir, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from gridsolve.nonogram.formats import iter_entries
    folder = puzzles_dir / "nonogram-db" / "db" / "gnonograms"
    if not folder.is_dir():
        pytest.skip("nonogram-db not present")
    out = tmp_path / "r.csv"
    assert run_batch(capsys, str(folder), "--jobs", "2", "--out", str(out))[0] == 0
    rows = read_rows(str(out))
    assert len(rows) == len(list(folder.glob("*.non")))
    for row in rows:
        goal = next(iter_entries(row.source)).goal
        assert row.status == "unique" and goal is not None
        assert row.solution_hash == digest(goal)


def test_puzzles_before_a_broken_one_are_solved(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    good = tournament.dump_many([puzzle_from_grid(BOX), puzzle_from_grid(CROSS)])
    path = tmp_path / "set.txt"
    path.write_text(good + "$3\n1\n")  # the third puzzle is cut short
    code, out, _ = run_batch(capsys, str(path), "--jobs", "1")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [(r["index"], r["status"]) for r in rows] == [(2, "error"), (0, "unique"), (1, "unique")]
    assert rows[0]["error"].startswith(f"{path}:")


@pytest.mark.heavy
def test_interrupt_stops_busy_workers_at_once() -> None:
    import os
    import time
    with pytest.raises(KeyboardInterrupt):
        with batch.local_executor(2) as pool:
            busy = pool.submit(time.sleep, 30)
            while not busy.running():
                time.sleep(0.01)
            pids = list(pool._processes)  # type: ignore[attr-defined]
            raise KeyboardInterrupt
    deadline = time.perf_counter() + 5

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    while any(alive(pid) for pid in pids) and time.perf_counter() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in pids)


def test_a_dead_worker_gives_error_rows_then_stops(folder: Path) -> None:
    from concurrent.futures import Executor, Future
    from concurrent.futures.process import BrokenProcessPool

    from gridsolve.errors import GridsolveError

    class Dying(Executor):
        """The first task's worker dies; the pool is broken from then on."""
        submitted = 0

        def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
            self.submitted += 1
            if self.submitted > 1:
                raise BrokenProcessPool("gone")
            future: Future[list[Row]] = Future()
            future.set_exception(BrokenProcessPool("a process terminated abruptly"))
            return future

    options = batch.Options()
    tasks = batch.plan(batch.discover([str(folder / "set.txt")], options), options, chunk=1)
    rows: list[Row] = []
    with pytest.raises(GridsolveError, match="a worker process died") as caught:
        batch.run_tasks(Dying(), tasks, 4, rows.extend)
    assert caught.value.remedy == "resume"  # the CLI adds "rerun with --resume to go on"
    assert [(r.index, r.status) for r in rows] == [(0, "error")]
    assert rows[0].error == "worker failed: BrokenProcessPool: a process terminated abruptly"


def test_output_inside_the_folder_is_not_a_puzzle(capsys, folder) -> None:  # type: ignore[no-untyped-def]
    out = folder / "results.json"
    assert run_batch(capsys, str(folder), "--jobs", "1", "--out", str(out))[0] == 0
    code, _, err = run_batch(capsys, str(folder), "--jobs", "1", "--resume", "--out", str(out))
    assert (code, len(read_rows(str(out)))) == (0, 8)
    assert "done: 0 puzzles" in err


def test_ctrl_c_on_a_dask_cluster_logs_no_teardown_traceback(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The comms an interrupt cuts log CommClosedError tracebacks while the client closes
    (found by an audit: 3 of 8 Ctrl-Cs printed one); after Ctrl-C those loggers are quiet."""
    import logging
    import types

    # the real comms first: with only the stub below, batch's ``distributed.comm`` import
    # fails when this test runs alone (it passed only after the tests above imported dask)
    pytest.importorskip("distributed.comm")

    class Client:
        def __init__(self, *_: object, **__: object) -> None:
            pass

        def nthreads(self) -> dict[str, int]:
            return {"w": 2}

        def get_executor(self, pure: bool) -> object:
            return object()

        def close(self) -> None:
            logging.getLogger("tornado.application").error("CommClosedError: Stream is closed")

    monkeypatch.setitem(sys.modules, "distributed", types.SimpleNamespace(Client=Client))
    saved = {name: logging.getLogger(name).level for name in batch.DASK_LOGGERS}
    try:
        with caplog.at_level(logging.DEBUG):
            with batch.dask_executor("tcp://127.0.0.1:1") as (_, slots):
                assert slots == 2
            assert [r.getMessage() for r in caplog.records] == [
                "CommClosedError: Stream is closed"]       # a normal close logs as it likes
            caplog.clear()
            with pytest.raises(KeyboardInterrupt):
                with batch.dask_executor("tcp://127.0.0.1:1"):
                    raise KeyboardInterrupt
            assert caplog.records == []
    finally:
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)
