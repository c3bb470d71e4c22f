"""Calendar puzzle benchmark: gridsolve against PyPI exact-cover packages, in one run.

    python benchmarks/calendar.py [--quick] [--sample N] [--previous REV]

Rows: every month/day pair of the original puzzle counted (372); one date with every solution
listed; the weekday edition's 2,604 month/day/weekday triples counted, by this version and by
the previous one (git REV, its source tree and extensions built in a temporary directory and
run in a child process in the same run). Peers (xcover, dxz)
count date by date from the same exact-cover matrix (only their solver calls are timed); on
the weekday edition they run on a random sample of triples and the total is extrapolated
(marked "~"). Times are wall-clock seconds, best of the rounds given.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

from gridsolve.tiling import calendar as cal
from gridsolve.tiling.engine import compile_problem
from gridsolve.tiling.model import Cell, placements

from exact_cover import Matrix, peer_dxz, peer_xcover  # the sibling module of both tiling benchmarks
from previous import built  # an earlier version built from git


def exact_cover_matrix(ed: cal.Edition, leave: Sequence[Cell]) -> Matrix:
    """Rows (one per placement avoiding the open cells) as item lists; items = cells + pieces."""
    cells = [c for c in ed.board.open if c not in set(leave)]
    col = {c: i for i, c in enumerate(cells)}
    rows = []
    for i, piece in enumerate(ed.pieces):
        for pl in placements(ed.board, i, piece):
            if all(c in col for c in pl.cells):
                rows.append([col[c] for c in pl.cells] + [len(cells) + i])
    return rows, len(cells) + len(ed.pieces)


CPU: dict[str, float] = {}


def best_of(rounds: int, fn: Callable[[], object], label: str = "") -> tuple[float, object]:
    """Best wall-clock time of some rounds (and the CPU time of that round, under ``label``)."""
    best, result = float("inf"), None
    for _ in range(rounds):
        t, cpu = time.perf_counter(), time.process_time()
        result = fn()
        wall = time.perf_counter() - t
        if wall < best:
            best = wall
            CPU[label] = time.process_time() - cpu
    return best, result


def ours_count_all(name: str) -> dict[cal.CalendarDay, int]:
    compile_problem.cache_clear()   # include building the placement table every time
    return cal.count_all(name)


def peer_dates(run: Callable[[Matrix], int], ed: cal.Edition, days: list[cal.CalendarDay],
               expected: dict[cal.CalendarDay, int]) -> float:
    """Seconds spent in the peer's solver over the given dates (answers checked)."""
    total = 0.0
    for day in days:
        m = exact_cover_matrix(ed, cal.leave_open(ed, day))
        t = time.perf_counter()
        n = run(m)
        total += time.perf_counter() - t
        if n != expected[day]:
            raise SystemExit(f"peer disagrees on {day}: {n} != {expected[day]}")
    return total


#: The version before this round of the weekday speed-up (issue 24): compared in the same run.
PREVIOUS = "f37918f"

_CHILD = """
import time, gridsolve
from gridsolve.tiling import calendar as cal
t, c = time.perf_counter(), time.process_time()
n = sum(cal.count_all("weekday").values())
print(time.perf_counter() - t, time.process_time() - c, n, gridsolve.__file__)
"""


def previous_weekday(rev: str, rounds: int) -> tuple[float, float] | None:
    """Wall and CPU seconds of the weekday count by version ``rev``, each the best of
    ``rounds`` fresh processes (None if it cannot be built)."""
    with built(rev) as src:
        if src is None:
            return None
        env = dict(os.environ, PYTHONPATH=str(src))
        best = (float("inf"), float("inf"))
        for _ in range(rounds):
            out = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True,
                                 text=True, check=True).stdout.split()
            if not out[3].startswith(str(src)) or int(out[2]) != 4937780:
                raise SystemExit(f"previous version ran from {out[3]}, total {out[2]}")
            best = (min(best[0], float(out[0])), min(best[1], float(out[1])))
        return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sample", type=int, default=40, help="weekday triples run by the peers")
    ap.add_argument("--quick", action="store_true", help="peers on a sample of pairs too")
    ap.add_argument("--previous", default=PREVIOUS, metavar="REV",
                    help=f"the earlier version timed on the weekday edition (default {PREVIOUS}; "
                    "'' skips it)")
    args = ap.parse_args()
    rng = random.Random(2024)
    peers = {name: f() for name, f in (("xcover", peer_xcover), ("dxz", peer_dxz))}
    peers = {k: v for k, v in peers.items() if v is not None}
    original, weekday = cal.edition("original"), cal.edition("weekday")
    tiny = exact_cover_matrix(original, cal.leave_open(original, cal.CalendarDay(1, 25)))
    for run in peers.values():
        run(tiny)   # warm-up (numba compiles on first use)

    rows: list[tuple[str, float, dict[str, str]]] = []

    t, year = best_of(args.rounds, lambda: ours_count_all("original"), "original")
    counts: dict[cal.CalendarDay, int] = year  # type: ignore[assignment]
    assert sum(n for d, n in counts.items() if d.valid) == 24405
    days = sorted(counts)
    sample = days if not args.quick else rng.sample(days, 40)
    cells = {}
    for name, run in peers.items():
        secs = peer_dates(run, original, sample, counts) * len(days) / len(sample)
        cells[name] = f"{'~' if len(sample) < len(days) else ''}{secs:.2f}"
    rows.append(("original: 372 month/day pairs counted", t, cells | {"cpu": "original"}))

    day = cal.CalendarDay(1, 25)
    t, listed = best_of(args.rounds, lambda: list(cal.solutions(day, original)), "list")
    assert len(listed) == 216  # type: ignore[arg-type]
    cells = {}
    for name, run in peers.items():
        m = exact_cover_matrix(original, cal.leave_open(original, day))
        cells[name] = f"{best_of(args.rounds, lambda run=run, m=m: run(m))[0]:.4f}"
    rows.append(("original: Jan 25, all 216 solutions listed", t, cells | {"cpu": "list"}))

    t, wk = best_of(args.rounds, lambda: ours_count_all("weekday"), "weekday")
    wcounts: dict[cal.CalendarDay, int] = wk  # type: ignore[assignment]
    wdays = sorted(wcounts)
    wsample = rng.sample(wdays, min(args.sample, len(wdays)))
    cells = {}
    for name, run in peers.items():
        secs = peer_dates(run, weekday, wsample, wcounts) * len(wdays) / len(wsample)
        cells[name] = f"~{secs:.1f}"
    rows.append(("weekday: 2,604 triples counted", t, cells | {"cpu": "weekday"}))
    before = previous_weekday(args.previous, args.rounds) if args.previous else None
    if before is not None:
        CPU["previous"] = before[1]
        rows.append((f"weekday: 2,604 triples, previous version {args.previous}", before[0],
                     {n: "-" for n in peers} | {"cpu": "previous"}))

    names = list(peers)
    head = ["task", "gridsolve (s)", "gridsolve CPU (s)", *[f"{n} (s)" for n in names],
            "speed-up vs fastest peer"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for task, ours, cells in rows:
        peer_secs = [float(cells[n].lstrip("~")) for n in names if cells[n] != "-"]
        ratio = f"{min(peer_secs) / ours:.0f}x" if peer_secs else "-"
        cpu = CPU[cells["cpu"]]
        fmt = f"{ours:.4f}" if ours < 0.1 else f"{ours:.2f}"
        cfmt = f"{cpu:.4f}" if cpu < 0.1 else f"{cpu:.2f}"
        print("| " + " | ".join([task, fmt, cfmt, *[cells[n] for n in names], ratio]) + " |")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    load = os.getloadavg()[0]
    print(f"\npeak memory of this process: {rss:.0f} MB; '~' = extrapolated from "
          f"{len(wsample)} sampled dates; load average {load:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
