"""The n-Dom family: auto against the faster of native and SAT (issue 56).

    python benchmarks/ndom.py [--from 9] [--to 20] [--timeout 60] [--previous REV]

Wolter's n-Dom is a (2n+1)x(2n+1) grid of domino patterns with one solution (9-Dom is
webpbn #8098); its cost grows about 1.65x per n, and the portfolio must not pick the slower
side for long. Each puzzle is solved to a proven status (count to 2) on one core by
``auto``, ``native`` and ``sat`` (python-sat's Glucose 4.2.1 on the order model) in this
process, and by the earlier version's ``auto`` in a child process with ``--previous REV``
(built from git, ``previous.py``). A row per n: seconds (or '-' past the timeout), auto's
ratio to the faster of native and SAT (target: at most 1.5), and the statuses, which must
agree. Targets: the ratio on every n, and 20-Dom by auto in at most 5 s.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from nonogram import Previous  # noqa: E402  (the sibling benchmark's)
from previous import built  # noqa: E402  (an earlier version built from git)

from gridsolve.nonogram.backends import analyse  # noqa: E402
from gridsolve.nonogram.engine import Result, SearchLimits  # noqa: E402
from gridsolve.nonogram.model import Puzzle  # noqa: E402

METHODS = ("auto", "native", "sat")


def n_dom(n: int) -> Puzzle:
    """Wolter's n-Dom: rows 3, then 1 and 3 1 in turn, then 1; columns 1, then 1 and 1 3 in
    turn, then 3 (for n = 9 these are webpbn #8098's clues)."""
    side = 2 * n + 1
    rows = [(3,)] + [(1,) if i % 2 == 0 else (3, 1) for i in range(2, side)] + [(1,)]
    cols = [(1,)] + [(1,) if i % 2 == 0 else (1, 3) for i in range(2, side)] + [(3,)]
    return Puzzle(tuple(rows), tuple(cols))


def timed(puzzle: Puzzle, method: str, timeout: float) -> Result:
    started = time.perf_counter()
    result = analyse(puzzle, 2, SearchLimits(timeout=timeout), method)
    return Result(result.status, result.solutions, result.nodes,
                  time.perf_counter() - started, result.partial, result.stats)


def cell(result: Result) -> str:
    return "-" if result.status == "unknown" else f"{result.seconds:.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--from", dest="first", type=int, default=9)
    ap.add_argument("--to", dest="last", type=int, default=20)
    ap.add_argument("--timeout", type=float, default=60.0, help="per solve (s)")
    ap.add_argument("--previous", metavar="REV", default=None)
    args = ap.parse_args()
    with contextlib.ExitStack() as stack:
        previous = None
        if args.previous:
            src = stack.enter_context(built(args.previous))
            if src is None:
                sys.exit(f"--previous: {args.previous} could not be archived or built")
            previous = Previous(src, "auto", args.timeout)
            stack.callback(previous.close)
        print(f"n-Dom, count to 2, one core, timeout {args.timeout:g} s")
        print()
        prev = f" auto@{args.previous} s |" if previous else ""
        print(f"| n | size | auto s | native s | sat s | auto / faster | status |{prev}")
        print("|---|---|---|---|---|---|---|" + ("---|" if previous else ""))
        missed = []
        for n in range(args.first, args.last + 1):
            puzzle = n_dom(n)
            got = {m: timed(puzzle, m, args.timeout) for m in METHODS}
            statuses = {r.status for r in got.values()} - {"unknown"}
            if len(statuses) > 1:
                sys.exit(f"{n}-Dom: the statuses disagree: {statuses}")
            faster = min((r.seconds for m, r in got.items() if m != "auto"
                          and r.status != "unknown"), default=None)
            auto = got["auto"]
            ratio = (f"{auto.seconds / faster:.2f}" if faster and auto.status != "unknown"
                     else "-")
            if ratio == "-" or float(ratio) > 1.5:
                missed.append(f"{n}-Dom ratio {ratio}")
            was = ""
            if previous is not None:
                old = previous.solve(puzzle, f"{n}-Dom")
                was = f" {cell(old)} |"
            print(f"| {n} | {2 * n + 1}x{2 * n + 1} | {cell(auto)} | {cell(got['native'])} "
                  f"| {cell(got['sat'])} | {ratio} | {auto.status} |{was}", flush=True)
            if n == 20 and (auto.status == "unknown" or auto.seconds > 5.0):
                missed.append(f"20-Dom {cell(auto)} s")
        print()
        print("missed: " + ", ".join(missed) if missed else "every target met")


if __name__ == "__main__":
    main()
