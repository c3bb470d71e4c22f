"""A batch of many puzzles on several local workers starts in this process, and starts a
pool only when what is left would pay for it (issue 56: 200 tournament puzzles took 0.73 s
with the default --jobs against 0.39 s with --jobs 1, the pool's start being the rest)."""

from __future__ import annotations

import random
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
    # the first task (the process's warm-up, left out of the rate), then one to measure
    assert [r.index for r in rows] == [0, 1, 2, 3]
    assert [t.indexes for t in left] == [t.indexes for t in tasks[2:]]
    for row in rows:  # (solved here, each checked against its clues)
        assert row.status in ("unique", "multiple")
    # and with a pool too costly to start, all of them here
    monkeypatch.setattr(batch_run, "POOL_START", 1e9)
    rows.clear()
    assert batch.run_here_first(tasks, 10, 2, rows.extend) is None
    assert sorted(r.index for r in rows) == list(range(10))
