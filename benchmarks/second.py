"""The second solution's cost: time to the first solution against time to "multiple".

    python benchmarks/second.py [--sets survey,random50,random70] [--method auto] [--timeout 30]

Per puzzle, one core, in the same process and interleaved: the method counting to 1 (time to
the first solution), counting to 2 with local moves (``engine.nearby``, as shipped), and
counting to 2 with local moves turned off (the search alone finds the second). CPU seconds
(``time.process_time``). Every solution is checked against the clues by the engine. Sets as in
nonogram.py (survey, random40/50/70/100, taai2011, janko; ``--limit N`` takes the first N).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from gridsolve.nonogram import backends
from gridsolve.nonogram.backends import auto
from gridsolve.nonogram.engine import Result, SearchLimits, team
from gridsolve.nonogram.formats import Entry

from nonogram import load_set, puzzles_dir


@contextmanager
def without_local_moves() -> Iterator[None]:
    """``nearby`` finds nothing while inside (the searches find every solution)."""
    saved = team.nearby, auto.nearby
    team.nearby = auto.nearby = lambda *a, **k: []  # type: ignore[assignment]
    try:
        yield
    finally:
        team.nearby, auto.nearby = saved


def timed(run: Callable[[], Result]) -> tuple[float, Result]:
    start = time.process_time()
    result = run()
    return time.process_time() - start, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="survey,random50,random70")
    ap.add_argument("--method", default="auto", help="auto or native")
    ap.add_argument("--timeout", type=float, default=30.0, help="per solve (s)")
    ap.add_argument("--limit", type=int, default=None, help="first N puzzles of each set")
    args = ap.parse_args()
    base = puzzles_dir()
    limits = SearchLimits(timeout=args.timeout)

    def solve(e: Entry, n: int) -> Result:
        return backends.analyse(e.puzzle, n, limits, args.method)

    print(f"{'puzzle':<18} {'size':>7} {'first':>7} {'multiple':>9} {'no-moves':>9} "
          f"{'status':>9} {'off':>9} {'by-move':>7}")
    for name in args.sets.split(","):
        totals = [0.0, 0.0, 0.0]
        for e in load_set(name, base)[:args.limit]:
            t1, _ = timed(lambda e=e: solve(e, 1))
            t2, r2 = timed(lambda e=e: solve(e, 2))
            with without_local_moves():
                t0, r0 = timed(lambda e=e: solve(e, 2))
            for i, t in enumerate((t1, t2, t0)):
                totals[i] += t
            moved = r2.stats.get("nearby", 0)
            print(f"{e.label[:18]:<18} {e.puzzle.size:>7} {t1:7.2f} {t2:9.2f} {t0:9.2f} "
                  f"{r2.status:>9} {r0.status:>9} {moved:>7}", flush=True)
        print(f"{'total ' + name:<18} {'':>7} {totals[0]:7.2f} {totals[1]:9.2f} "
              f"{totals[2]:9.2f}\n", flush=True)


if __name__ == "__main__":
    main()
