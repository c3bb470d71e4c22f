"""Colour nonogram benchmark: the native colour engine and auto against a SAT baseline.

    python benchmarks/colour.py [--timeout S] [--random N] [--previous REV]

Sets:
  corpus      every colour puzzle in ../shared/puzzles (Olšák .g, pynogram INI, nonogrid TOML)
  rnd30-50    N random 30x30 pictures, 3 colours, half the cells background (seeded)
  rnd30-60    N random 30x30 pictures, 3 colours, 60% background: many solutions, hard
  bw-as-colour  one-colour copies of 100 taai2011 puzzles: the general colour engine against
              the black-and-white engine on the same puzzles (the price of generality)

Each puzzle is solved to a proven status (count to 2). The SAT baseline is python-sat's
CaDiCaL 1.9.5 on the colour block-start encoding (gridsolve.nonogram.backends.sat), in the
same process. Every solution is checked against the clues by the engine that returns it, and
statuses must agree between solvers (a mismatch stops the run). With ``--previous REV`` an
earlier version (built from git, ``previous.py``) runs its ``auto`` on every puzzle in the
same run, in a child process (the row ``auto@REV``).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from nonogram import Previous, puzzles_dir  # noqa: E402  (the sibling benchmark's)
from previous import built  # noqa: E402  (an earlier version built from git)

from gridsolve.nonogram import backends  # noqa: E402
from gridsolve.nonogram.engine import Result, SearchLimits  # noqa: E402
from gridsolve.nonogram.engine import analyse as bw_analyse  # noqa: E402
from gridsolve.nonogram.formats import iter_entries, read_entry  # noqa: E402
from gridsolve.nonogram.model import (Colour, ColourPuzzle, Puzzle, as_colour,  # noqa: E402
                                      colour_puzzle_from_grid, WHITE)

CORPUS = [
    *(f"olsak-examples-via-pbnsolve/{n}.g" for n in
      ("acorn", "alladin", "bird2", "dvekocky", "oko", "raketa", "rose", "ruze", "viceres")),
    "pynogram-examples/uk.txt", "pynogram-examples/apples.txt", "nonogrid-examples/UK.toml",
]
PALETTE = (WHITE, Colour("red", (220, 40, 40), "r"), Colour("green", (40, 160, 60), "g"),
           Colour("blue", (40, 80, 220), "b"))


def random_set(n: int, size: int, background: float, seed: int) -> list[tuple[str, ColourPuzzle]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        grid = ["".join("." if rng.random() < background else rng.choice("rgb")
                        for _ in range(size)) for _ in range(size)]
        out.append((f"#{i}", colour_puzzle_from_grid(grid, PALETTE)))
    return out


def corpus_set(base: Path) -> list[tuple[str, ColourPuzzle]]:
    out = []
    for rel in CORPUS:
        path = base / rel
        if path.exists():
            puzzle = read_entry(str(path)).puzzle
            assert isinstance(puzzle, ColourPuzzle), rel
            out.append((path.name, puzzle))
    return out


Solver = Callable[[ColourPuzzle | Puzzle], Result]


def solvers(timeout: float, previous: dict[str, Solver]) -> dict[str, Solver]:
    limits = SearchLimits(timeout=timeout)
    return {
        "native": lambda p: backends.analyse(p, 2, limits, "native"),
        "auto": lambda p: backends.analyse(p, 2, limits, "auto"),
        **previous,
        "sat-baseline": lambda p: backends.analyse(p, 2, limits, "sat", solver="cadical195"),
    }


def timed(solve: Solver, puzzle: ColourPuzzle | Puzzle, own: bool) -> tuple[float, str]:
    """Wall seconds and status; ``own``: the seconds the solver measured itself (an earlier
    version's child, whose wall time here would add the puzzle's trip to it and back)."""
    t = time.perf_counter()
    result = solve(puzzle)
    return (result.seconds if own else time.perf_counter() - t), result.status


def fmt(x: float) -> str:
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def print_table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    table = [head, *rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    for i, r in enumerate(table):
        print("  ".join(c.rjust(w) for c, w in zip(r, widths)))
        if i == 0:
            print("  ".join("-" * w for w in widths))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--timeout", type=float, default=30.0, help="per puzzle and solver (s)")
    ap.add_argument("--random", type=int, default=10, help="puzzles per random set")
    ap.add_argument("--previous", metavar="REV", default="",
                    help="also run auto of an earlier version (a git revision)")
    args = ap.parse_args()
    with contextlib.ExitStack() as stack:
        previous: dict[str, Solver] = {}
        if args.previous:
            src = stack.enter_context(built(args.previous))
            if src is None:
                sys.exit(f"--previous: {args.previous} could not be archived or built")
            child = Previous(src, "auto", args.timeout)
            stack.callback(child.close)
            previous[f"auto@{args.previous}"] = lambda p: child.solve(p, "a colour puzzle")
        run(args, previous)


def run(args: argparse.Namespace, previous: dict[str, Solver]) -> None:
    """Every set with every solver, and the tables."""
    base = puzzles_dir()
    sets = {
        "corpus": corpus_set(base),
        "rnd30-50": random_set(args.random, 30, 0.5, 1),
        "rnd30-60": random_set(args.random, 30, 0.6, 2),
    }
    names = list(solvers(args.timeout, previous))
    rows, corpus_rows = [], []
    for set_name, puzzles in sets.items():
        secs: dict[str, list[float]] = {m: [] for m in names}
        proven = {m: 0 for m in names}
        for label, puzzle in puzzles:
            statuses = {}
            for m, solve in solvers(args.timeout, previous).items():
                dt, status = timed(solve, puzzle, m in previous)
                secs[m].append(dt)
                statuses[m] = status
                proven[m] += status != "unknown"
            known = {s for s in statuses.values() if s != "unknown"}
            if len(known) > 1:
                sys.exit(f"status mismatch on {set_name} {label}: {statuses}")
            if set_name == "corpus":
                corpus_rows.append((label, puzzle.size, str(len(puzzle.palette) - 1),
                                    "/".join(known) or "unknown",
                                    *(fmt(secs[m][-1]) for m in names)))
        sat_total = sum(secs["sat-baseline"])
        for m in names:
            total = sum(secs[m])
            rows.append((set_name, m, str(len(puzzles)), str(proven[m]), fmt(total),
                         fmt(statistics.median(secs[m])) if secs[m] else "-",
                         fmt(max(secs[m], default=0.0)),
                         f"{sat_total / total:.1f}x" if m != "sat-baseline" and total else "-"))

    # the price of generality: one-colour copies of B&W puzzles, colour engine vs B&W engine
    taai = list(iter_entries(str(base / "nonogramrecord-tournaments/question/taai2011.txt")))[:100]
    bw_secs, col_secs = 0.0, 0.0
    for e in taai:
        assert isinstance(e.puzzle, Puzzle)
        t = time.perf_counter()
        bw = bw_analyse(e.puzzle, 2, SearchLimits(timeout=args.timeout))
        bw_secs += time.perf_counter() - t
        t = time.perf_counter()
        col = backends.analyse(as_colour(e.puzzle), 2, SearchLimits(timeout=args.timeout),
                               "native")
        col_secs += time.perf_counter() - t
        if bw.status != col.status:
            sys.exit(f"status mismatch on taai2011 {e.label}: {bw.status} / {col.status}")

    print(f"\ncolour nonograms: gridsolve vs a SAT baseline (CaDiCaL 1.9.5, colour block-start "
          f"CNF), count to 2, {args.timeout:g} s limit, one core, same run\n")
    print_table(("set", "solver", "puzzles", "proven", "total s", "median s", "max s",
                 "SAT/this"), rows)
    print("\nshared colour puzzles (seconds)\n")
    print_table(("puzzle", "size", "colours", "status", *names), corpus_rows)
    print(f"\nblack-and-white taai2011 #0-#99 (count to 2): B&W engine {fmt(bw_secs)} s, "
          f"colour engine on one-colour copies {fmt(col_secs)} s "
          f"({col_secs / bw_secs:.1f}x; B&W puzzles always go to the B&W engine)")


if __name__ == "__main__":
    main()
