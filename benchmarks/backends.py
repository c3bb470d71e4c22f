"""Benchmark every nonogram backend on the same puzzles, in one run, and print one table.

Rows: the webpbn survey puzzles in the shared corpora (glpk-pbn/*.dat, then the
gramcracker-survey ones not already listed) and one aggregate row for the first N taai2011
tournament puzzles. Columns: native, sat (Glucose 4, the default), sat-cadical195 (the lead's
SAT baseline), ilp (PuLP/CBC) and auto; each counts to 2 (proves uniqueness) under a
per-puzzle timeout. A cell is "seconds status" (U unique, M multiple, N none, ? limit
reached). Statuses that disagree between two backends are flagged and make the exit code 1.

    .venv/bin/python benchmarks/backends.py [--timeout 30] [--tournament 100] [--ilp-tournament 20]

Needs the shared corpora (../shared/puzzles or $GRIDSOLVE_PUZZLES) and the sat and ilp extras.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from nonogram import load_set, puzzles_dir

from gridsolve.nonogram.backends import analyse
from gridsolve.nonogram.engine import Result, SearchLimits
from gridsolve.nonogram.model import Puzzle

Runner = Callable[[Puzzle, float], Result]

COLUMNS: dict[str, Runner] = {
    "native": lambda p, t: analyse(p, 2, SearchLimits(timeout=t), "native"),
    "sat": lambda p, t: analyse(p, 2, SearchLimits(timeout=t), "sat"),
    "sat-cadical195": lambda p, t: analyse(p, 2, SearchLimits(timeout=t), "sat",
                                           solver="cadical195"),
    "ilp": lambda p, t: analyse(p, 2, SearchLimits(timeout=t), "ilp"),
    "auto": lambda p, t: analyse(p, 2, SearchLimits(timeout=t), "auto"),
}
LETTER = {"unique": "U", "multiple": "M", "none": "N", "unknown": "?"}


def survey(root: Path) -> list[Puzzle]:
    """The survey puzzles, each once, named by their file."""
    return [Puzzle(e.puzzle.rows, e.puzzle.cols, title=e.label) for e in load_set("survey", root)]


def run(runner: Runner, puzzle: Puzzle, timeout: float) -> tuple[float, str]:
    """Seconds (wall clock, everything included) and status of one backend on one puzzle."""
    started = time.perf_counter()
    result = runner(puzzle, timeout)
    return time.perf_counter() - started, result.status


def cell(seconds: float, status: str) -> str:
    return f"{seconds:8.3f} {LETTER[status]}"


def aggregate(results: list[tuple[float, str]]) -> str:
    """Total seconds, and statuses counted, for a set of puzzles."""
    counts = "".join(f" {sum(1 for _, s in results if s == k)}{LETTER[k]}"
                     for k in ("unique", "multiple", "none", "unknown")
                     if any(s == k for _, s in results))
    return f"{sum(t for t, _ in results):8.2f}{counts}"


def disagree(statuses: dict[str, str]) -> bool:
    """Do two backends that both finished report different statuses?"""
    return len({s for s in statuses.values() if s != "unknown"}) > 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per puzzle and backend")
    parser.add_argument("--tournament", type=int, default=100, help="taai2011 puzzles to run")
    parser.add_argument("--ilp-tournament", type=int, default=20,
                        help="of those, how many ILP runs (CBC is slow)")
    args = parser.parse_args(argv)
    root = puzzles_dir()
    names = list(COLUMNS)
    header = f"| {'puzzle':<22} | {'size':>7} | " + " | ".join(f"{n:>16}" for n in names) + " |"
    print(header)
    print("|" + "|".join("-" * len(part) for part in header.split("|")[1:-1]) + "|")
    bad = 0
    for puzzle in survey(root):
        row = {n: run(COLUMNS[n], puzzle, args.timeout) for n in names}
        flag = " !" if disagree({n: s for n, (_, s) in row.items()}) else ""
        bad += bool(flag)
        print(f"| {(puzzle.title or '?') + flag:<22} | {puzzle.size:>7} | "
              + " | ".join(f"{cell(*row[n]):>16}" for n in names) + " |", flush=True)
    tour = [e.puzzle for e in load_set("taai2011", root)[: args.tournament]]
    per: dict[str, list[tuple[float, str]]] = {n: [] for n in names}
    for i, puzzle in enumerate(tour):
        statuses = {}
        for n in names:
            if n == "ilp" and i >= args.ilp_tournament:
                continue
            per[n].append(run(COLUMNS[n], puzzle, args.timeout))
            statuses[n] = per[n][-1][1]
        if disagree(statuses):
            bad += 1
            print(f"status mismatch on {puzzle.title}: {statuses}", file=sys.stderr)
    label = f"taai2011 x{len(tour)} (total)"
    print(f"| {label:<22} | {'25x25':>7} | "
          + " | ".join(f"{aggregate(per[n]):>16}" for n in names) + " |")
    print(f"| {'  median / max':<22} | {'':>7} | "
          + " | ".join(f"{statistics.median(t for t, _ in per[n]):6.3f}/{max(t for t, _ in per[n]):6.2f}"
                       .rjust(16) for n in names) + " |")
    print(f"\ntimeout {args.timeout:g} s per puzzle and backend; counting to 2; ILP ran the first "
          f"{min(args.ilp_tournament, len(tour))} tournament puzzles; "
          f"{bad} status disagreement(s).")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
