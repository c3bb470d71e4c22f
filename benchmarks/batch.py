"""Batch benchmark: the taai2011 tournament set through the batch runner, --jobs 1 against 2.

    python benchmarks/batch.py [--limit N] [--jobs 1,2] [--timeout S] [--method auto]

Runs the same tasks the CLI would (``gridsolve.batch``: discovery, chunking, the local pool)
once per jobs setting and prints wall seconds, CPU seconds, speed-up against the first
setting, and rows by status. CPU seconds = this process's CPU time plus, with one job, that
of the programs it ran and waited for (Kissat, where ``auto`` hands a puzzle over), or with
more, the per-puzzle solve times measured in the workers (the solves are single-threaded and
CPU-bound; a worker's Kissat runs while it waits). Rows of every
setting must be identical apart from their timing; a mismatch is reported.
Puzzle data is read from ../shared/puzzles (or $GRIDSOLVE_PUZZLES).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from collections import Counter
from pathlib import Path

from gridsolve import batch
from gridsolve.batch import Options, Row

from jobs import children_cpu

ROOT = Path(__file__).resolve().parent.parent
STATUSES = batch.STATUSES


def puzzles_file() -> Path:
    """The taai2011 question file of the shared corpora."""
    env = os.environ.get("GRIDSOLVE_PUZZLES")
    base = Path(env) if env else ROOT.parent / "shared" / "puzzles"
    path = base / "nonogramrecord-tournaments" / "question" / "taai2011.txt"
    if not path.is_file():
        sys.exit(f"benchmark data not found at {path} (set GRIDSOLVE_PUZZLES)")
    return path


def run(path: Path, limit: int | None, jobs: int, options: Options) -> tuple[float, float, list[Row]]:
    """One batch over the first ``limit`` puzzles: (wall s, CPU s, rows)."""
    rows: list[Row] = []
    wall0, cpu0, kids0 = time.perf_counter(), time.process_time(), children_cpu()
    found = [dataclasses.replace(f, count=min(f.count, limit or f.count))
             for f in batch.discover([str(path)], options)]
    total = sum(f.count for f in found)
    with batch.local_executor(jobs) as executor:
        tasks = batch.plan(found, options, batch.auto_chunk(total, jobs, 8))
        batch.run_tasks(executor, tasks, jobs * 4, rows.extend)
    wall = time.perf_counter() - wall0
    cpu = time.process_time() - cpu0 + (sum(r.seconds for r in rows) if jobs > 1
                                        else children_cpu() - kids0)
    return wall, cpu, rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="first N puzzles only")
    ap.add_argument("--jobs", default="1,2", help="comma-separated worker counts")
    ap.add_argument("--timeout", type=float, default=60.0, help="per-puzzle seconds")
    ap.add_argument("--method", default="auto", help="solver method (default auto)")
    args = ap.parse_args()
    path = puzzles_file()
    options = Options(timeout=args.timeout, method=args.method)
    print(f"taai2011 ({args.limit or 'all'} puzzles), method {args.method}, "
          f"timeout {args.timeout:g} s, {os.cpu_count()} cores")
    print(f"{'jobs':>4} {'wall s':>8} {'CPU s':>8} {'speed-up':>8}  rows by status")
    base_wall: float | None = None
    base_rows: dict[tuple[str, int], Row] | None = None
    for jobs in (int(j) for j in args.jobs.split(",")):
        wall, cpu, rows = run(path, args.limit, jobs, options)
        base_wall = base_wall or wall
        counts = Counter(r.status for r in rows)
        text = ", ".join(f"{s} {counts[s]}" for s in STATUSES if counts[s])
        print(f"{jobs:>4} {wall:8.2f} {cpu:8.2f} {base_wall / wall:7.2f}x  {text}", flush=True)
        keyed = {r.key: batch.comparable(r) for r in rows}
        if base_rows is None:
            base_rows = keyed
        elif keyed != base_rows:
            diff = sum(1 for k in base_rows if keyed.get(k) != base_rows[k])
            print(f"     rows differ from the first setting for {diff} puzzles", flush=True)


if __name__ == "__main__":
    main()
