"""Every calendar preset: golden counts for every date, checked against two other methods.

The golden files (tests/tiling/golden/NAME.counts) hold the engine's count of every
month/day(/weekday) pair. The fast tests check a few dates; the slow ones recount every date
by the one split search and compare the golden counts with a plain-Python Algorithm X
(gridsolve.tiling.reference) on a sample and with dxz (the bench extra) on every date of the
month/day editions and a sample of the weekday ones.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gridsolve.tiling import calendar as cal
from gridsolve.tiling import presets, reference
from gridsolve.tiling.calendar import CalendarDay as D

GOLDEN = Path(__file__).parent / "golden"
NAMES = list(presets.EDITIONS)

#: Per edition: total solutions over the real dates, fewest, most (read from the golden files,
#: restated here so that a changed golden file cannot pass unnoticed).
SUMMARY = {
    "original": (24405, 7, 216),
    "weekday": (4864096, 97, 10374),
    "jarringwords": (22625, 10, 208),
    "creamakerspace": (7490, 1, 87),
    "tetromino": (380125, 308, 5205),
    "weekday-sun": (4864096, 97, 10374),
}


def golden(name: str) -> dict[D, int]:
    """The golden counts of an edition."""
    out = {}
    for line in (GOLDEN / f"{name}.counts").read_text().splitlines():
        if line.startswith("#"):
            continue
        *date, n = (int(x) for x in line.split())
        out[D(date[0], date[1], date[2] if len(date) == 3 else None)] = n
    return out


@pytest.mark.parametrize("name", NAMES)
def test_golden_file_is_complete_and_summarised(name: str) -> None:
    counts = golden(name)
    ed = cal.edition(name)
    assert sorted(counts) == cal.all_days(ed)
    valid = [n for day, n in counts.items() if day.valid]
    assert (sum(valid), min(valid), max(valid)) == SUMMARY[name]


@pytest.mark.parametrize("name, day", [
    ("jarringwords", D(7, 2)), ("jarringwords", D(1, 23)),
    ("creamakerspace", D(3, 1)), ("creamakerspace", D(6, 23)),
    ("tetromino", D(5, 26)), ("tetromino", D(2, 29)),
    ("weekday-sun", D(4, 6, 0)), ("weekday-sun", D(11, 22, 5)),
])
def test_a_few_dates(name: str, day: D) -> None:
    ed = cal.edition(name)
    assert cal.count(day, ed) == golden(name)[day]


def test_one_date_by_the_reference() -> None:
    ed = cal.edition("creamakerspace")
    day = D(3, 1)
    leave = cal.leave_open(ed, day)
    assert reference.count_tilings(ed.board, ed.pieces, leave) == golden("creamakerspace")[day] == 1


def test_boards_and_pieces() -> None:
    """The layouts as documented: where 29-31 and the weekdays sit, the pieces' sizes."""
    tetro = cal.edition("tetromino")
    assert [tetro.board.by_label[str(d)] for d in (29, 30, 31)] == [(6, 4), (6, 5), (6, 6)]
    assert sorted(p.size for p in tetro.pieces) == [4, 4, 4, 4, 4, 5, 5, 5, 6]
    sun = cal.edition("weekday-sun")
    assert [sun.board.by_label[w] for w in ("Sun", "Mon", "Thu", "Sat")] == [(6, 3), (6, 4), (7, 4),
                                                                            (7, 6)]
    assert sun.board.size == 50 and len(sun.pieces) == 10
    crea = cal.edition("creamakerspace")
    assert [p.name for p in crea.pieces if p.size == 6] == ["H"]
    jw = cal.edition("jarringwords")
    assert {p.name for p in jw.pieces} ^ {p.name for p in cal.edition("original").pieces} == {"T", "Z"}


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_every_date_recounted(name: str) -> None:
    assert cal.count_all(name) == golden(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_sample_against_the_reference(name: str) -> None:
    """Plain Algorithm X on the three hardest dates and three random ones."""
    ed = cal.edition(name)
    counts = golden(name)
    hardest, _ = cal.rank(counts, 3)
    rng = random.Random(name)
    days = [day for day, _ in hardest] + rng.sample(sorted(d for d in counts if d.valid), 3)
    for day in days:
        leave = cal.leave_open(ed, day)
        assert reference.count_tilings(ed.board, ed.pieces, leave) == counts[day], day


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_dates_against_dxz(name: str) -> None:
    """dxz (Knuth's DXZ in C, the bench extra): every date, or 60 of a weekday edition."""
    dxz = pytest.importorskip("dxz")
    ed = cal.edition(name)
    counts = golden(name)
    days = sorted(counts)
    if ed.has_weekday:
        days = random.Random(name).sample(days, 60)
    for day in days:
        free = set(ed.board.open) - set(cal.leave_open(ed, day))
        cells = sorted(free)
        col = {cell: i for i, cell in enumerate(cells)}
        rows = reference.options(ed.board, ed.pieces, free)
        ncols = len(cells) + len(ed.pieces)
        flat = [0] * (len(rows) * ncols)
        for r, opt in enumerate(rows):
            *opt_cells, piece = opt
            for item in opt_cells:
                flat[r * ncols + col[item]] = 1   # type: ignore[index]
            assert isinstance(piece, tuple)
            flat[r * ncols + len(cells) + piece[1]] = 1
        assert int(dxz.dxz_count(len(rows), ncols, flat)) == counts[day], day
