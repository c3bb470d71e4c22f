"""Shared fixtures: where the internal puzzle corpora live (tests skip cleanly without them)."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from gridsolve.nonogram.policy import Policy

REPO = Path(__file__).resolve().parent.parent


def shared_puzzles() -> Path | None:
    """../shared/puzzles beside the repository (or $GRIDSOLVE_PUZZLES), if present."""
    env = os.environ.get("GRIDSOLVE_PUZZLES")
    for cand in ([Path(env)] if env else []) + [REPO.parent / "shared" / "puzzles"]:
        if cand.is_dir():
            return cand
    return None


@pytest.fixture(scope="session")
def puzzles_dir() -> Path:
    path = shared_puzzles()
    if path is None:
        pytest.skip("shared puzzle corpora (../shared/puzzles) not present")
    return path


@pytest.fixture(autouse=True)
def cores_as_asked(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """--jobs N starts N processes in tests, however busy the machine (``cores.free`` says
    "unknown"): tests of the processes' plan must not depend on the load. Tests marked
    ``real_cores`` (tests/test_cores.py) see the machine as it is."""
    if request.node.get_closest_marker("real_cores") is None:
        from gridsolve import cores
        monkeypatch.setattr(cores, "free", lambda before, after: None)


@pytest.fixture
def no_dive() -> Policy:
    """A policy for auto, --jobs and native without the dive (``Team.dive``), to pass as
    ``policy=``: tests of the SAT side take random 50x50 and 70x70 puzzles as the hard ones,
    and the dive ends most of those at once."""
    from gridsolve.nonogram.policy import DEFAULT_POLICY
    return dataclasses.replace(DEFAULT_POLICY, dive_max_cells=0)


@pytest.fixture
def no_guided(monkeypatch: pytest.MonkeyPatch) -> None:
    """Kissat's and glucose-syrup's runs without the guided search after each solution
    (``engine.guided``): tests of the runs themselves take tiny puzzles, which the guided
    search exhausts at once, so no second run would come."""
    from collections.abc import Generator

    from gridsolve.nonogram.engine.guided import Guided

    def nothing(*_args: object, **_kwargs: object) -> Generator[tuple[str, ...], None, bool]:
        return False
        yield  # (a generator)
    monkeypatch.setattr(Guided, "around", nothing)
