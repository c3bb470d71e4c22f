"""Calibrate the difficulty score: rate samples of two corpora and print the work quantiles.

    python benchmarks/rating.py [--puzzles DIR] [--janko N] [--tournament N] [--timeout S]

Magazine puzzles (janko.at, scraped by puzzlekit) should come out mostly "line"; random
tournament boards (TAAI/TCGA/ICGA 25x25) mostly "probe" or "search". The quantiles printed
per level are the evidence behind ``SCORE_TABLE`` in ``gridsolve/nonogram/rate.py``.
Reads the shared corpora in place; nothing is copied.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
from collections import Counter
from pathlib import Path

from gridsolve.errors import InvalidPuzzle
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.model import Puzzle
from gridsolve.nonogram.rate import LEVELS, Rating, rate, work_of

DEFAULT_DIR = Path(os.environ.get("GRIDSOLVE_PUZZLES")
                   or Path(__file__).resolve().parents[2] / "shared" / "puzzles")


def janko(root: Path, n: int) -> list[Puzzle]:
    """Every k-th puzzle of the janko set (problem: "R C", C column lines, R row lines)."""
    data = json.loads((root / "puzzlekit-janko" / "Nonogram_dataset.json").read_text())["data"]
    keys = sorted(data)
    out = []
    for key in keys[::max(1, len(keys) // n)][:n]:
        lines = data[key]["problem"].splitlines()
        r, c = map(int, lines[0].split())
        clues = [[int(t) for t in line.split()] for line in lines[1:1 + c + r]]
        try:
            out.append(Puzzle(clues[c:], clues[:c], title=key))
        except InvalidPuzzle:
            continue
    return out


def tournament(root: Path, n: int) -> list[Puzzle]:
    """The first n boards of each of two tournament sets ($k, 25 column lines, 25 row lines)."""
    out = []
    for name in ("taai2011.txt", "icga2019.txt"):
        lines = (root / "nonogramrecord-tournaments" / "question" / name).read_text().splitlines()
        for k in range(n // 2):
            block = lines[k * 51 + 1:k * 51 + 51]
            clues = [[int(t) for t in line.split()] for line in block]
            out.append(Puzzle(clues[25:], clues[:25], title=f"{name}#{k + 1}"))
    return out


def report(name: str, ratings: list[tuple[Puzzle, Rating]]) -> None:
    """Print level counts and, per level, the work quantiles and score counts."""
    levels = Counter(r.level for _, r in ratings)
    print(f"\n{name}: {len(ratings)} puzzles, levels " +
          ", ".join(f"{lv} {levels[lv]}" for lv in LEVELS) +
          f", not unique/unknown {sum(not r.unique for _, r in ratings)}")
    print("| level (unique only) | n | work p10 | p25 | median | p75 | p90 | scores |")
    print("|---|---|---|---|---|---|---|---|")
    for lv in LEVELS:
        works = sorted(work_of(lv, p, r.line_solves, r.probes, r.nodes)
                       for p, r in ratings if r.level == lv and r.unique)
        if not works:
            continue
        q = [works[min(len(works) - 1, int(f * len(works)))] for f in (.1, .25, .5, .75, .9)]
        scores = Counter(r.score for _, r in ratings if r.level == lv and r.unique)
        print(f"| {lv} | {len(works)} | " + " | ".join(f"{x:.3g}" for x in q) + " | " +
              " ".join(f"{s}:{scores[s]}" for s in sorted(scores)) + " |")
    secs = [r.seconds for _, r in ratings]
    print(f"seconds: total {sum(secs):.2f}, median {statistics.median(secs):.4f}, max {max(secs):.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzles", type=Path, default=DEFAULT_DIR)
    ap.add_argument("--janko", type=int, default=300)
    ap.add_argument("--tournament", type=int, default=60)
    ap.add_argument("--timeout", type=float, default=10.0)
    args = ap.parse_args()
    limits = SearchLimits(timeout=args.timeout)
    for name, puzzles in (("janko (magazine)", janko(args.puzzles, args.janko)),
                          ("tournament 25x25", tournament(args.puzzles, args.tournament))):
        report(name, [(p, rate(p, limits)) for p in puzzles])


if __name__ == "__main__":
    main()
