"""Classic tiling benchmark: gridsolve against PyPI exact-cover packages, in one run.

    python benchmarks/tiling.py [--rounds N] [--skip-peers-on 6x10]

Rows: the pentomino rectangles 3x20, 4x15, 5x12, 6x10 and the 8x8 board with a 2x2 centre hole,
every tiling counted (the published counts are asserted). gridsolve counts with its memoised
search (building the placement table included) and, separately, up to symmetry (listing every
tiling); the peers (xcover, dxz: the bench extra) count the same exact-cover matrix (12
pentomino items + the cells), only their solver calls timed. Wall-clock and CPU seconds, best
of the rounds given; the speed-up compares CPU seconds, which a shared machine's load
disturbs less than wall-clock ones.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from collections.abc import Callable

from gridsolve.tiling import engine, presets
from gridsolve.tiling.engine import compile_problem
from gridsolve.tiling.model import Board, Piece, placements
from gridsolve.tiling.symmetry import count_up_to_symmetry

from exact_cover import Matrix, installed_peers  # the sibling module of both tiling benchmarks


#: Board -> (all tilings, up to symmetry): Haselgrove 1960, Scott 1958, Knuth 2000.
EXPECTED = {"3x20": (8, 2), "4x15": (1472, 368), "5x12": (4040, 1010), "6x10": (9356, 2339),
            "8x8-centre": (520, 65)}


def exact_cover_matrix(board: Board, pieces: tuple[Piece, ...]) -> Matrix:
    """Rows (one per placement) as item lists; items = cells, then one per piece."""
    col = {c: i for i, c in enumerate(board.open)}
    rows = []
    for i, piece in enumerate(pieces):
        for pl in placements(board, i, piece):
            rows.append([col[c] for c in pl.cells] + [len(col) + i])
    return rows, len(col) + len(pieces)


def best_of(rounds: int, fn: Callable[[], object]) -> tuple[float, float, object]:
    """Best wall-clock time of some rounds, the CPU time of that round, and the result."""
    best, cpu_best, result = float("inf"), 0.0, None
    for _ in range(rounds):
        t, cpu = time.perf_counter(), time.process_time()
        result = fn()
        wall = time.perf_counter() - t
        if wall < best:
            best, cpu_best = wall, time.process_time() - cpu
    return best, cpu_best, result


def ours(board: Board, pieces: tuple[Piece, ...]) -> int:
    compile_problem.cache_clear()   # include building the placement table every time
    return engine.count(board, pieces)


def fmt(x: float) -> str:
    return f"{x:.4f}" if x < 0.1 else f"{x:.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--skip-peers-on", nargs="*", default=[], metavar="BOARD",
                    help="boards the peers are not run on")
    args = ap.parse_args()
    pieces = presets.named_pieces("pentominoes")
    runners = installed_peers()
    for run in runners.values():     # warm-up (numba compiles on first use)
        run(exact_cover_matrix(presets.named_board("3x20"), pieces))
    head = ["board", "tilings", "gridsolve (s)", "gridsolve CPU (s)", "up to symmetry (s)",
            *[f"{n} wall / CPU (s)" for n in runners], "CPU speed-up vs fastest peer"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for name, (total, classes) in EXPECTED.items():
        board = presets.named_board(name)
        wall, cpu, n = best_of(args.rounds, lambda board=board: ours(board, pieces))
        assert n == total, (name, n)
        sym_wall, _, got = best_of(1, lambda board=board: count_up_to_symmetry(board, pieces))
        assert got[:2] == (total, classes), (name, got)  # type: ignore[index]
        cells = []
        peer_secs = []
        for pname, run in runners.items():
            if name in args.skip_peers_on:
                cells.append("-")
                continue
            m = exact_cover_matrix(board, pieces)
            secs, peer_cpu, res = best_of(1, lambda run=run, m=m: run(m))
            assert res == total, (pname, name, res)
            peer_secs.append(peer_cpu)
            cells.append(f"{fmt(secs)} / {fmt(peer_cpu)}")
        ratio = f"{min(peer_secs) / cpu:.0f}x" if peer_secs else "-"
        print("| " + " | ".join([name, f"{total:,} ({classes:,})", fmt(wall), fmt(cpu),
                                 fmt(sym_wall), *cells, ratio]) + " |", flush=True)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory of this process: {rss:.0f} MB; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores; peers timed once each")


if __name__ == "__main__":
    main()
