"""How long does it take to make unique puzzles? 100 random 25x25 and 10 random 50x50.

    python benchmarks/generate.py [--density D] [--level L] [--n25 N] [--n50 N]

Seeds 0..N-1, so every run makes the same puzzles. Each puzzle is proven unique twice (by the
generator's judge, then from scratch) and re-checked here. Prints one table row per size:
total and median seconds, attempts (grids judged) and cells changed from the random grid.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from gridsolve.nonogram.engine import analyse
from gridsolve.nonogram.generate import generate
from gridsolve.nonogram.rate import LEVELS


def run(size: int, count: int, density: float, level: str) -> str:
    """Make ``count`` puzzles of ``size`` x ``size`` and return the table row."""
    seconds, attempts, changed = [], [], []
    levels: Counter[str] = Counter()
    for seed in range(count):
        start = time.perf_counter()
        made = generate(size, size, density=density, seed=seed, level=level)  # type: ignore[arg-type]
        seconds.append(time.perf_counter() - start)
        assert analyse(made.puzzle).solutions == (made.solution,)
        attempts.append(made.attempts)
        changed.append(made.changed)
        levels[made.rating.level] += 1
    return (f"| {size}x{size} | {count} | {sum(seconds):.2f} | {statistics.median(seconds):.3f} | "
            f"{max(seconds):.2f} | {statistics.median(attempts):g} / {max(attempts)} | "
            f"{statistics.mean(changed):.1f} ({100 * statistics.mean(changed) / size ** 2:.1f}%) | "
            + " ".join(f"{lv} {levels[lv]}" for lv in LEVELS if levels[lv]) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--density", type=float, default=0.5)
    ap.add_argument("--level", choices=["any", *LEVELS], default="any",
                    help="the level each puzzle must need (default any: the first unique one)")
    ap.add_argument("--n25", type=int, default=100)
    ap.add_argument("--n50", type=int, default=10)
    args = ap.parse_args()
    print(f"density {args.density}, level {args.level}, seeds from 0")
    print("| size | puzzles | total s | median s | max s | attempts median / max "
          "| cells changed, mean | levels |")
    print("|---|---|---|---|---|---|---|---|")
    for size, count in ((25, args.n25), (50, args.n50)):
        if count:
            print(run(size, count, args.density, args.level), flush=True)


if __name__ == "__main__":
    main()
