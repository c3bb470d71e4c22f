"""How fast does the command line answer a small puzzle? Whole processes, from start to exit.

Each command runs as its own process, ``--runs`` times (default 20) after one warm-up, the
commands in turn (A B C A B C ...) so that a drift of the shared machine's speed hits them
alike; the table gives the best and the median wall time of each, and the median CPU time
(user + system, which a busy machine disturbs less than the wall time). Rows:

    python -c pass                        the interpreter alone: the floor under every row
    python -c 'import gridsolve'          the library's public API
    gridsolve nonogram solve heart.txt    a small solve, start to exit (target: median <= 0.08 s)
    gridsolve calendar solve "Nov 25"     a calendar date

``--baseline SRC`` adds the same rows for another checkout's ``src/`` (with its compiled
extensions built, e.g. a git worktree of the previous version), run on PYTHONPATH, so a
change is measured against what it changes in the same run. Every gridsolve row runs as the
installed ``gridsolve`` script does (``from gridsolve.cli import main``).

    .venv/bin/python benchmarks/startup.py [--runs 20] [--baseline ../old/src]

Exit code 1 when this checkout's small solve misses the target. ``python -X importtime`` on
the same command says where the time goes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HEART = REPO / "src" / "gridsolve" / "examples" / "heart.txt"
#: The target of issue 23 on a small solve, seconds of wall time from process start (median).
TARGET = 0.08
#: What the installed console script runs.
CLI = "import sys; from gridsolve.cli import main; sys.exit(main())"


@dataclass
class Row:
    """One command of one checkout and the wall times of its runs."""

    label: str
    checkout: str
    argv: list[str]
    env: dict[str, str]
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def run(self) -> None:
        """One run: its wall time, and its CPU time (user + system, from the kernel)."""
        start = time.perf_counter()
        proc = subprocess.Popen(self.argv, env=self.env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        self.times.append(time.perf_counter() - start)
        self.cpu.append(usage.ru_utime + usage.ru_stime)
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            done = subprocess.run(self.argv, env=self.env, capture_output=True, check=False)
            raise SystemExit(f"{self.label} ({self.checkout}) failed: "
                             f"{done.stderr.decode(errors='replace').strip()}")


def rows_for(checkout: str, src: Path | None) -> list[Row]:
    """The commands measured for one checkout (``src`` None: the installed one)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: the warm-up caches the bytecode
    if src is not None:
        env["PYTHONPATH"] = str(src)
    py = sys.executable
    cli = [py, "-c", CLI]
    return [
        Row("python -c pass", checkout, [py, "-c", "pass"], env),
        Row("import gridsolve", checkout, [py, "-c", "import gridsolve"], env),
        Row("nonogram solve heart.txt", checkout, [*cli, "nonogram", "solve", str(HEART)], env),
        Row("calendar solve Nov 25", checkout, [*cli, "calendar", "solve", "Nov 25"], env),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=20, help="counted runs of each command")
    ap.add_argument("--baseline", type=Path, default=None, metavar="SRC",
                    help="another checkout's src/ to measure in the same run")
    args = ap.parse_args(argv)
    rows = rows_for("this", None)
    if args.baseline is not None:
        rows = [r for pair in zip(rows_for("baseline", args.baseline.resolve()), rows)
                for r in pair]
    for row in rows:  # warm-up: disk cache, .pyc files
        row.run()
        row.times.clear()
        row.cpu.clear()
    for _ in range(args.runs):
        for row in rows:
            row.run()
    print(f"CLI start-up, whole processes: {args.runs} runs each, interleaved "
          f"(target: small solve median <= {TARGET:.2f} s)\n")
    print(f"| {'command':<26} | {'checkout':<8} | {'best s':>7} | {'median s':>8} | "
          f"{'CPU median s':>12} |")
    print(f"|{'-' * 28}|{'-' * 10}|{'-' * 9}|{'-' * 10}|{'-' * 14}|")
    for row in rows:
        print(f"| {row.label:<26} | {row.checkout:<8} | {min(row.times):>7.3f} | "
              f"{statistics.median(row.times):>8.3f} | {statistics.median(row.cpu):>12.3f} |")
    solve = next(r for r in rows if r.checkout == "this" and "heart" in r.label)
    return 0 if statistics.median(solve.times) <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
