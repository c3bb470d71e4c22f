"""Deterministic report of the compiled nonogram engines' work, to compare two builds.

    python benchmarks/engine_nodes.py [--limit 100] [--start 0] [--step 1] [--cap 3000]

For ``--limit`` taai2011 puzzles (#start, #start+step, ...) it runs every search configuration of the
black-and-white engine (the team of ``analyse``; each branching rule alone, with and without
conflict weights; no probing; restarts with nogoods) and the colour engine (the puzzle as a
one-colour puzzle), each counting to 2 under a node cap, and prints per configuration the
totals of nodes, line solves and probes, and a digest of every puzzle's counters and grids.
It also runs both line solvers over random lines. No clock is read, so two builds of the
same algorithm print the same report: run it under each build (e.g. PYTHONPATH pointing at
another tree) and diff the outputs.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from collections.abc import Callable
from pathlib import Path

from gridsolve.nonogram.engine import SearchLimits, Team, _core
from gridsolve.nonogram.engine import _colour
from gridsolve.nonogram.formats import iter_entries
from gridsolve.nonogram.model import Puzzle, puzzle_from_grid

ROOT = Path(__file__).resolve().parent.parent
TAAI = ROOT.parent / "shared" / "puzzles" / "nonogramrecord-tournaments/question/taai2011.txt"

Counters = tuple[int, ...]


def single(order: int, weights: bool = True, probing: bool = True,
           restarts: bool = False) -> Callable[[Puzzle, int], tuple[Counters, bytes]]:
    """One compiled search with a fixed configuration, counting to 2 within ``cap`` nodes."""
    def run(puzzle: Puzzle, cap: int) -> tuple[Counters, bytes]:
        core = _core.Search(puzzle.rows, puzzle.cols, probing, None, True, order, weights,
                            restarts)
        grids = b""
        found, run_no, budget = 0, 0, 100
        while found < 2:
            limit = min(cap, core.stats()["nodes"] + budget) if restarts and not found else cap
            code = core.next(limit)
            if code == _core.SOLUTION:
                found += 1
                grids += core.grid()
                continue
            if code == _core.EXHAUSTED or core.stats()["nodes"] >= cap:
                break
            run_no += 1  # a restart run ended: back to the root with its nogoods
            core.restart(0)
            budget = 100 * (1 + run_no % 3)
        st = core.stats()
        return (st["nodes"], st["line_solves"], st["probes"], st["cache_hits"],
                st["implied_fixes"], st["nogoods"]), grids + core.root()
    return run


def team(puzzle: Puzzle, cap: int) -> tuple[Counters, bytes]:
    """The team of searches analyse() runs by default."""
    t = Team(puzzle, 2)
    t.run(SearchLimits(max_nodes=cap))
    st = t.stats()
    grids = b"".join("".join(g).encode() for g in t.found)
    return (st["nodes"], st["line_solves"], st["probes"], st["cache_hits"]), grids


def colour(puzzle: Puzzle, cap: int) -> tuple[Counters, bytes]:
    """The colour engine on the puzzle as a one-colour puzzle."""
    rows = [[(n, 1) for n in clue] for clue in puzzle.rows]
    cols = [[(n, 1) for n in clue] for clue in puzzle.cols]
    core = _colour.Search(rows, cols, 2)
    grids = b""
    for _ in range(2):
        if core.next(cap) != _colour.SOLUTION:
            break
        grids += core.grid()
    st = core.stats()
    return (st["nodes"], st["line_solves"], st["probes"], st["cache_hits"]), grids + core.root()


CONFIGS: dict[str, Callable[[Puzzle, int], tuple[Counters, bytes]]] = {
    "team": team,
    "loose": single(0), "tight": single(1), "likely": single(2), "sure": single(3),
    "promise": single(4), "likely-unweighted": single(2, weights=False),
    "loose-noprobe": single(0, probing=False), "promise-restarts": single(4, restarts=True),
    "colour": colour,
}


def lines_digest(seed: int = 1) -> str:
    """Both line solvers over random lines (short, bit-parallel and byte DP; long)."""
    rng = random.Random(seed)
    h = hashlib.sha256()
    for _ in range(3000):
        n = rng.choice([5, 20, 63, 64, 100, 300])
        cells = [rng.random() < 0.55 for _ in range(n)]
        clue, run = [], 0
        for c in cells + [False]:
            if c:
                run += 1
            elif run:
                clue.append(run)
                run = 0
        line = "".join(rng.choice("??#.") if rng.random() < 0.3 else "?" for _ in range(n))
        for bits in (True, False):
            h.update(repr(_core.solve_line(clue, line.encode(), bits)).encode())
        masks = [1 if ch == "." else 2 if ch == "#" else 3 for ch in line]
        h.update(repr(_colour.solve_line([(x, 1) for x in clue], masks)).encode())
    return h.hexdigest()[:16]


def long_lines(count: int, seed: int = 7) -> list[Puzzle]:
    """Random dense puzzles with lines of 64 cells and more (the byte line solver's sizes)."""
    rng = random.Random(seed)
    sizes = [(64, 12), (12, 64), (80, 10), (10, 100), (70, 20)]
    out = []
    for i in range(count):
        w, h = sizes[i % len(sizes)]
        out.append(puzzle_from_grid(["".join("#" if rng.random() < 0.6 else "."
                                             for _ in range(w)) for _ in range(h)]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--step", type=int, default=1)
    ap.add_argument("--cap", type=int, default=3000)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--long", type=int, default=0,
                    help="random puzzles with long lines instead of taai2011")
    args = ap.parse_args(argv)
    if not TAAI.is_file():
        print(f"taai2011 not found at {TAAI}", file=sys.stderr)
        return 2
    if args.long:
        puzzles = long_lines(args.long)
        print(f"{len(puzzles)} random puzzles with long lines, count to 2, {args.cap}-node cap")
    else:
        every = [e.puzzle for e in iter_entries(str(TAAI))]
        puzzles = every[args.start::args.step][:args.limit]
        print(f"{len(puzzles)} taai2011 puzzles (from #{args.start + 1}, every {args.step}), "
              f"count to 2, {args.cap}-node cap")
    print(f"{'configuration':20} {'nodes':>10} {'line solves':>13} {'probes':>11}  digest")
    for name in args.configs.split(","):
        run = CONFIGS[name]
        h = hashlib.sha256()
        totals = [0, 0, 0]
        for p in puzzles:
            counters, grids = run(p, args.cap)
            h.update(repr(counters).encode() + grids)
            for i in range(3):
                totals[i] += counters[i]
        print(f"{name:20} {totals[0]:>10,} {totals[1]:>13,} {totals[2]:>11,}  "
              f"{h.hexdigest()[:16]}", flush=True)
    print(f"{'line solvers':20} {'':>10} {'':>13} {'':>11}  {lines_digest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
