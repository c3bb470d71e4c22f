"""A batch of many puzzles on several local workers starts in this process, and starts a
pool only when what is left would pay for it (issue 56: 200 tournament puzzles took 0.73 s
with the default --jobs against 0.39 s with --jobs 1, the pool's start being the rest)."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from gridsolve import batch
from gridsolve.batch import Row, read_rows
from gridsolve.batch import run as batch_run
from gridsolve.cli import main
from gridsolve.nonogram.formats import tournament
from gridsolve.nonogram.generate import random_grid
from gridsolve.nonogram.model import puzzle_from_grid


def _set(path: Path, count: int) -> None:
    rng = random.Random(7)
    path.write_text(tournament.dump_many([puzzle_from_grid(random_grid(5, 5, 0.6, rng))
                                          for _ in range(count)]))


def test_many_easy_puzzles_start_no_pool(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _set(tmp_path / "set.txt", 80)

    def no_pool(jobs: int) -> Any:
        raise AssertionError(f"a pool of {jobs} started")
    monkeypatch.setattr(batch, "local_executor", no_pool)
    # (a pool that costs this much never pays: what this test checks must not depend on how
    # fast the machine solves these)
    monkeypatch.setattr(batch_run, "POOL_START", 1e9)
    out = tmp_path / "r.jsonl"
    assert main(["batch", str(tmp_path / "set.txt"), "--jobs", "2", "--out", str(out)]) == 0
    rows = read_rows(str(out))
    assert sorted(r.index for r in rows) == list(range(80))
    assert all(r.status in ("unique", "multiple") for r in rows)
    capsys.readouterr()


def test_a_few_puzzles_go_to_the_pool_at_once() -> None:
    assert not batch.here_first(63, 2) and batch.here_first(64, 2)
    assert not batch.here_first(10_000, 1)  # one job: no pool to weigh


def test_the_pool_takes_what_is_left_once_it_pays(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """With a pool that costs nothing to start, only the first task is solved here; the
    tasks left come back, none lost or solved twice."""
    _set(tmp_path / "set.txt", 10)
    options = batch.Options()
    tasks = list(batch.plan(batch.discover([str(tmp_path / "set.txt")], options), options,
                            chunk=2))
    monkeypatch.setattr(batch_run, "POOL_START", 0.0)
    rows: list[Row] = []
    left = batch.run_here_first(tasks, 10, 2, rows.extend)
    assert left is not None
    assert [r.index for r in rows] == [0, 1]  # the first task shows the work a puzzle
    assert [t.indexes for t in left] == [t.indexes for t in tasks[1:]]
    for row in rows:  # (solved here, each checked against its clues)
        assert row.status in ("unique", "multiple")
    # and with a pool too costly to start, all of them here
    monkeypatch.setattr(batch_run, "POOL_START", 1e9)
    rows.clear()
    assert batch.run_here_first(tasks, 10, 2, rows.extend) is None
    assert sorted(r.index for r in rows) == list(range(10))


def _tasks(tmp_path: Path, count: int, chunk: int = 2) -> list[batch.Task]:
    _set(tmp_path / "set.txt", count)
    options = batch.Options()
    return list(batch.plan(batch.discover([str(tmp_path / "set.txt")], options), options,
                           chunk=chunk))


def test_here_first_decides_by_work_not_by_the_clock(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine so busy that each puzzle seems to take a minute starts no pool for a batch
    whose work is small: the decision counts the engines' work, so it repeats anywhere."""
    tasks = _tasks(tmp_path, 10)
    ticks = iter(range(0, 10**9, 60))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(ticks)))
    rows: list[Row] = []
    assert batch.run_here_first(tasks, 10, 2, rows.extend) is None
    assert sorted(r.index for r in rows) == list(range(10))


def test_the_work_counted_is_each_puzzles_cost(tmp_path: Path) -> None:
    """``run_here`` returns the cost of what it solved: a base a puzzle and a cell, and the
    engines' work weighed by line length; the threshold is that work at the pool's price."""
    tasks = _tasks(tmp_path, 4)
    rows: list[Row] = []
    spent = batch_run.run_here(tasks, rows.extend)
    works = []
    for task in tasks:
        work: list[int] = []
        again = batch.solve_task(task, work)
        assert list(map(batch.comparable, again)) == [
            batch.comparable(r) for r in rows if r.index in task.indexes]
        works += work
    assert len(works) == 4 and all(w > 0 for w in works)  # these 5x5 need line solves
    assert spent == sum(batch_run.cost(r, w) for r, w in zip(rows, works))
    assert batch_run.cost(rows[0], 0) == batch_run.PUZZLE_WORK + 25 * batch_run.CELL_WORK
    # the pool pays once the work a puzzle so far, times the puzzles left, is worth its start
    per = spent / 4
    pays = batch_run.POOL_START * batch_run.WORK_PER_SECOND * 2
    assert batch.run_here_first(tasks * int(pays / per / 8 + 2), 8 * int(pays / per / 8 + 2),
                                2, rows.extend) is not None


def test_two_hundred_tournament_puzzles_are_small() -> None:
    """By the cost model, 200 25x25 puzzles of 14,300 line solves each (taai2011 #1-#200 on
    average) stay in this process on two cores, and 1,000 go to the pool."""
    row = Row("t", 0, "t", 25, 25, "multiple", 0.0, 8, "", "")
    each = batch_run.cost(row, 14_300)
    pays = batch_run.POOL_START * batch_run.WORK_PER_SECOND * 2
    assert each * 200 < pays / 2 and each * 1000 > pays
