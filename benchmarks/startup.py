"""How fast does the command line answer a small puzzle? Whole processes, from start to exit.

Each command runs as its own process, ``--runs`` times (default 20) after one warm-up, the
commands in turn (A B C A B C ...) so that a drift of the shared machine's speed hits them
alike; the table gives the best and the median wall time of each, and the median CPU time
(user + system, which a busy machine disturbs less than the wall time). Rows:

    python -c pass                        the interpreter alone: the floor under every row
    python -c 'import gridsolve'          the library's public API
    gridsolve --version                   the command line's own start-up
    gridsolve nonogram solve heart.txt    a small solve, start to exit (target: median <= 0.08 s)
    gridsolve nonogram solve 25x25        one tournament puzzle (taai2011 #1)
    gridsolve calendar solve "Nov 25"     a calendar date
    gridsolve batch 200 --jobs 1          200 tournament puzzles (taai2011 #1-#200, count to 2)
                                          in this process (target of issue 56: median <= 0.3 s)
    gridsolve batch 200                   the same with the default --jobs (every core)

The tournament rows read ../shared/puzzles (``GRIDSOLVE_PUZZLES`` names another place) and
are left out when it is absent. ``--previous REV`` adds the same rows for an earlier version
built from git (``previous.py``, as the other benchmarks' ``--previous``); ``--baseline SRC``
for another checkout's ``src/`` (its compiled extensions built); either runs on PYTHONPATH,
so a change is measured against what it changes in the same run. Every gridsolve row runs a
script named ``gridsolve`` that does what the installed one does (``from gridsolve.cli import
main``): the process is the command. An earlier checkout's row that fails (629b277 has no
``--version`` without a command) is said in the table and left out.

    .venv/bin/python benchmarks/startup.py [--runs 20] [--previous REV] [--baseline ../old/src]

Exit code 1 when this checkout misses a target. ``python -X importtime`` on the same command
says where the time goes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from previous import built  # an earlier version built from git

REPO = Path(__file__).resolve().parents[1]
HEART = REPO / "src" / "gridsolve" / "examples" / "heart.txt"
PUZZLES = Path(os.environ.get("GRIDSOLVE_PUZZLES", REPO.parent / "shared" / "puzzles"))
TOURNAMENT = PUZZLES / "nonogramrecord-tournaments" / "question" / "taai2011.txt"
#: Puzzles in the batch rows, and the lines of one in a tournament file ($n, then 50 clues).
BATCH, LINES_PER_PUZZLE = 200, 51
#: Targets, seconds of wall time from process start (median): a small solve (issue 23) and
#: the batch of 200 tournament puzzles in this process (issue 56).
TARGET = 0.08
BATCH_TARGET = 0.3
TARGETS = {"nonogram solve heart.txt": TARGET, f"batch {BATCH} --jobs 1": BATCH_TARGET}
#: What the installed console script runs (pip's, less the Windows suffix): written as a file
#: named ``gridsolve``, so that the process is the command as it is installed (the package
#: treats the command apart from a program importing it: ``gridsolve._startup``).
CLI = "import sys\nfrom gridsolve.cli import main\nsys.exit(main())\n"


@dataclass
class Row:
    """One command of one checkout and the wall times of its runs."""

    label: str
    checkout: str
    argv: list[str]
    env: dict[str, str]
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    #: why an earlier checkout's command failed (it is then left out of the runs)
    failed: str = ""

    def run(self) -> None:
        """One run: its wall time, and its CPU time (user + system, from the kernel)."""
        if self.failed:
            return
        start = time.perf_counter()
        proc = subprocess.Popen(self.argv, env=self.env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        self.times.append(time.perf_counter() - start)
        self.cpu.append(usage.ru_utime + usage.ru_stime)
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            done = subprocess.run(self.argv, env=self.env, capture_output=True, check=False)
            why = done.stderr.decode(errors="replace").strip().splitlines()[-1:]
            if self.checkout != "this":  # e.g. 629b277's --version: a row it cannot run
                self.failed = f"exit {done.returncode}: {' '.join(why)}"
                return
            raise SystemExit(f"{self.label} ({self.checkout}) failed: {' '.join(why)}")


def tournament_files(folder: Path) -> tuple[Path, Path] | None:
    """One tournament puzzle and the first ``BATCH`` of its set, written into ``folder``
    (None when the corpus is absent)."""
    if not TOURNAMENT.is_file():
        return None
    lines = TOURNAMENT.read_text().splitlines(keepends=True)[:BATCH * LINES_PER_PUZZLE]
    one, many = folder / "one.txt", folder / f"first{BATCH}.txt"
    one.write_text("".join(lines[:LINES_PER_PUZZLE]))
    many.write_text("".join(lines))
    return one, many


def rows_for(checkout: str, src: Path | None, puzzles: tuple[Path, Path] | None,
             out: Path) -> list[Row]:
    """The commands measured for one checkout (``src`` None: the installed one); batch rows
    write to ``out``, the command's script is ``out``'s sibling ``gridsolve``."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: the warm-up caches the bytecode
    if src is not None:
        env["PYTHONPATH"] = str(src)
    py = sys.executable
    script = out.parent / "gridsolve"
    script.write_text(CLI)
    cli = [py, str(script)]
    rows = [
        Row("python -c pass", checkout, [py, "-c", "pass"], env),
        Row("import gridsolve", checkout, [py, "-c", "import gridsolve"], env),
        Row("gridsolve --version", checkout, [*cli, "--version"], env),
        Row("nonogram solve heart.txt", checkout, [*cli, "nonogram", "solve", str(HEART)], env),
    ]
    if puzzles is not None:
        one, many = puzzles
        batch = [*cli, "batch", str(many), "--out", str(out)]
        rows.append(Row("nonogram solve 25x25", checkout, [*cli, "nonogram", "solve", str(one)],
                        env))
    rows.append(Row("calendar solve Nov 25", checkout, [*cli, "calendar", "solve", "Nov 25"],
                    env))
    if puzzles is not None:
        rows += [Row(f"batch {BATCH} --jobs 1", checkout, [*batch, "--jobs", "1"], env),
                 Row(f"batch {BATCH}", checkout, batch, env)]
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=20, help="counted runs of each command")
    ap.add_argument("--previous", default="", metavar="REV",
                    help="an earlier version (git revision) to build and measure in the same run")
    ap.add_argument("--baseline", type=Path, default=None, metavar="SRC",
                    help="another checkout's src/ to measure in the same run")
    args = ap.parse_args(argv)
    load_before = os.getloadavg()[0]
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        puzzles = tournament_files(tmp)
        others: list[tuple[str, Path]] = []
        if args.previous:
            src = stack.enter_context(built(args.previous))
            if src is None:
                sys.exit(f"--previous: {args.previous} could not be archived or built")
            others.append((args.previous, src))
        if args.baseline is not None:
            others.append(("baseline", args.baseline.resolve()))
        groups = [rows_for("this", None, puzzles, tmp / "this.jsonl")]
        groups += [rows_for(name, src, puzzles, tmp / f"{i}.jsonl")
                   for i, (name, src) in enumerate(others)]
        rows = [r for same in zip(*groups) for r in same]
        for row in rows:  # warm-up: disk cache, .pyc files
            row.run()
            row.times.clear()
            row.cpu.clear()
        for _ in range(args.runs):
            for row in rows:
                row.run()
    print(f"CLI start-up, whole processes: {args.runs} runs each, interleaved (targets: "
          + ", ".join(f"{k} median <= {v:.2f} s" for k, v in TARGETS.items()) + ")"
          + ("" if puzzles else f"; no tournament rows: {TOURNAMENT} is absent"))
    # other work on the machine stretches the wall times, much less the CPU times
    print(f"load average {load_before:.1f} before the runs, {os.getloadavg()[0]:.1f} after, "
          f"{os.cpu_count()} cores\n")
    print(f"| {'command':<26} | {'checkout':<8} | {'best s':>7} | {'median s':>8} | "
          f"{'CPU median s':>12} |")
    print(f"|{'-' * 28}|{'-' * 10}|{'-' * 9}|{'-' * 10}|{'-' * 14}|")
    for row in rows:
        if row.failed:
            print(f"| {row.label:<26} | {row.checkout:<8} | failed ({row.failed}) |")
            continue
        print(f"| {row.label:<26} | {row.checkout:<8} | {min(row.times):>7.3f} | "
              f"{statistics.median(row.times):>8.3f} | {statistics.median(row.cpu):>12.3f} |")
    missed = [r.label for r in rows if r.checkout == "this" and r.label in TARGETS
              and statistics.median(r.times) > TARGETS[r.label]]
    if missed:
        print("\nmissed: " + ", ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
