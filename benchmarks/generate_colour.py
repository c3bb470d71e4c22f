"""How long does it take to make unique colour puzzles, and does an independent count agree?

    python benchmarks/generate_colour.py [--colours 2,3,4,6] [--sizes 10,15,20] [--n N]
                                         [--level L] [--picture]

Seeds 0..N-1, so every run makes the same puzzles. Each is proven unique by the generator
(the rating's complete search on the colour engine), then counted again here to 2 by the SAT
backend (python-sat, ``--method sat``). One table row per colours and size: seconds to
generate (median, max), attempts and cells changed, the levels, and the SAT count.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from gridsolve.nonogram.backends import analyse
from gridsolve.nonogram.generate_colour import generate_colour
from gridsolve.nonogram.rate import LEVELS


def run(colours: int, size: int, count: int, level: str, picture: bool) -> str:
    """Make ``count`` puzzles and return the table row."""
    seconds, proofs, attempts, changed = [], [], [], []
    levels: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    for seed in range(count):
        start = time.perf_counter()
        made = generate_colour(size, size, colours, seed=seed, level=level,  # type: ignore[arg-type]
                               picture=picture)
        seconds.append(time.perf_counter() - start)
        start = time.perf_counter()
        result = analyse(made.puzzle, 2, method="sat")
        proofs.append(time.perf_counter() - start)
        statuses[result.status] += 1
        assert result.solutions[:1] == (made.solution,), seed
        attempts.append(made.attempts)
        changed.append(made.changed)
        levels[made.rating.level or "?"] += 1
    sat = ", ".join(f"{s} {n}" for s, n in sorted(statuses.items()))
    return (f"| {colours} | {size}x{size} | {count} | {statistics.median(seconds):.3f} | "
            f"{max(seconds):.3f} | {statistics.median(attempts):g} / {max(attempts)} | "
            f"{statistics.mean(changed):.1f} | "
            + " ".join(f"{lv} {levels[lv]}" for lv in LEVELS if levels[lv])
            + f" | {sat} | {statistics.median(proofs):.3f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--colours", default="2,3,4,6")
    ap.add_argument("--sizes", default="10,15,20")
    ap.add_argument("--n", type=int, default=10, help="puzzles per row (seeds 0..N-1)")
    ap.add_argument("--level", choices=["any", *LEVELS], default="any")
    ap.add_argument("--picture", action="store_true", help="banded value noise, not noise")
    args = ap.parse_args()
    print(f"level {args.level}, {'picture' if args.picture else 'noise'}, seeds 0..{args.n - 1}")
    print("| colours | size | puzzles | generate median s | max s | attempts median / max "
          "| cells changed, mean | levels | SAT count to 2 | SAT median s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for colours in map(int, args.colours.split(",")):
        for size in map(int, args.sizes.split(",")):
            print(run(colours, size, args.n, args.level, args.picture), flush=True)


if __name__ == "__main__":
    main()
