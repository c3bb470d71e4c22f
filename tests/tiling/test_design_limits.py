"""``calendar design --search`` within its limits (issue #53.3): each shape tried once per
replaced piece (up to the turns and mirror images that piece may take), one deadline for
the whole search, and progress as it goes."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gridsolve.cli import main
from gridsolve.tiling import calendar as cal
from gridsolve.tiling import design, presets
from gridsolve.tiling.engine import SearchLimits
from gridsolve.tiling.formats import pieces_text
from gridsolve.tiling.model import Piece, orientations


def _copies(piece: Piece, n: int, seed: int, start: int = 1) -> tuple[Piece, ...]:
    """``n`` copies of a piece's shape, each turned or mirrored at random, named Q1, Q2..."""
    rng = random.Random(seed)
    return tuple(Piece(f"Q{start + i}", rng.choice(orientations(piece.cells)))
                 for i in range(n))


def _pentomino(name: str) -> Piece:
    return next(p for p in presets.named_pieces("pentominoes") if p.name == name)


def test_a_shape_under_many_names_is_tried_once() -> None:
    """Twenty turned and mirrored copies of the T are the T's seven swaps, named after the
    first copy (they were 140: 'Z -> Q103', 'Z -> Q115', ...)."""
    ed = cal.edition("original")
    pool = _copies(_pentomino("T"), 20, seed=1)
    tried = [(swap.removed, swap.added.name) for swap, _ in design.swaps(ed, pool)]
    alone = [(swap.removed, "Q1") for swap, _ in design.swaps(ed, pool[:1])]
    assert tried == alone and len(tried) == 7
    assert design.distinct_shapes(pool) == 1
    assert design.distinct_shapes(presets.named_pieces("pentominoes") + pool) == 12


def test_mirror_images_stay_apart_in_a_one_sided_set() -> None:
    """A one-sided set may not turn a piece over: a shape and its mirror image are two
    candidates there, one in a set of free pieces."""
    ed = cal.edition("original")
    one_sided = cal.Edition("one-sided", ed.board, tuple(
        dataclasses.replace(p, flip=False) for p in ed.pieces))
    f = _pentomino("F")
    pool = (Piece("A", f.cells), Piece("B", tuple((r, -c) for r, c in f.cells)))
    free = {swap.added.name for swap, _ in design.swaps(ed, pool)}
    sided = {swap.added.name for swap, _ in design.swaps(one_sided, pool)}
    assert free == {"A"} and sided == {"A", "B"}


def test_the_whole_search_stops_at_its_deadline_with_what_it_tried() -> None:
    """No time left: no set is counted, and the search says so (each set had the whole
    timeout to itself: a 10,000-piece pool printed nothing in 400 s)."""
    ed = cal.edition("original")
    pool = _copies(_pentomino("T"), 200, seed=2)
    searched = design.search_within(ed, pool, SearchLimits(timeout=0.0))
    assert (searched.found, searched.tried, searched.total, searched.complete) == ((), 0, 7,
                                                                                   False)
    assert design.search(ed, pool, SearchLimits(timeout=0.0)) == []


def test_progress_is_reported_set_by_set() -> None:
    ed = cal.edition("original")
    calls: list[tuple[int, int]] = []
    searched = design.search_within(ed, (_pentomino("T"),), SearchLimits(),
                                    lambda done, total: calls.append((done, total)))
    assert searched.complete and searched.tried == searched.total == 7
    assert calls == [(i, 7) for i in range(8)]  # before each set, and once at the end
    assert [(s.removed, s.added.name) for s, _ in searched.found] == [
        ("Z", "T"), ("V", "T"), ("U", "T")]


def test_cli_json_says_what_the_search_counted(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    pool = tmp_path / "pool.pieces"
    pool.write_text(pieces_text(_copies(_pentomino("T"), 30, seed=3)))
    assert main(["calendar", "design", "--search", "--pool", str(pool), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["search"] == {"sets": 7, "counted": 7, "complete": True}
    assert [(s["remove"], s["add"]) for s in obj["swaps"]] == [("Z", "Q1"), ("V", "Q1"),
                                                               ("U", "Q1")]


@pytest.mark.heavy
def test_cli_search_over_a_large_pool_ends_at_the_timeout(tmp_path: Path) -> None:
    """A 2,000-piece pool of copies of the pentominoes at ``--timeout 2``: the command ends
    within max(0.5 s, 10%) of it (29.3 s for 200 pieces), each swap listed once."""
    rng = random.Random(4)
    pents = presets.named_pieces("pentominoes")
    pool = tuple(Piece(f"Q{i}", rng.choice(orientations(rng.choice(pents).cells)))
                 for i in range(2000))
    path = tmp_path / "pool.pieces"
    path.write_text(pieces_text(pool))
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "gridsolve", "calendar", "design", "--search",
                           "--pool", str(path), "--timeout", "2", "--top", "100"],
                          capture_output=True, text=True, timeout=300)
    assert time.perf_counter() - started < 2 + 0.5 + 0.5  # and the process's start
    assert done.returncode in (0, 1), done.stderr
    swaps = [tuple(line.split()[:3:2]) for line in done.stdout.splitlines() if " -> " in line]
    assert len(swaps) <= 35
    shape = {p.name: min(orientations(p.cells)) for p in pool}
    assert len({(old, shape[new]) for old, new in swaps}) == len(swaps)  # no shape twice
    if done.returncode == 1:
        assert "the time limit stopped the search: " in done.stdout
