"""``gridsolve batch PATH...``: solve many puzzles on all cores or a Dask cluster, row by row."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any, TextIO

from gridsolve import batch, cores
from gridsolve.batch import Found, Options, Row, Tally
from gridsolve.cli._args import memory, positive_int, printable, seconds
from gridsolve.errors import GridsolveError
from gridsolve.nonogram.backends import METHODS
from gridsolve.nonogram.engine import DEFAULT_MAX_MEMORY
from gridsolve.nonogram.formats import INPUT_FORMATS

#: Tasks kept in flight per worker slot: enough to keep every worker busy, few enough to
#: keep memory and the scheduler's queue small.
WINDOW_PER_SLOT = 4
#: Largest automatic chunk on the local pool (see ``batch.auto_chunk``).
LOCAL_CHUNK_CAP = 8


def add_parser(sub: Any, argv: Sequence[str] | None = None) -> None:
    p = sub.add_parser(
        "batch", help="solve many nonograms (files, folders, multi-puzzle sets) into rows",
        description="Solve every puzzle found under PATH... and write one result row per "
                    "puzzle (JSONL, or CSV when --out ends in .csv) as each finishes.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="puzzle files or folders (searched recursively for puzzle files)")
    p.add_argument("--out", default=None, metavar="FILE",
                   help="write rows here (.csv: CSV, else JSONL; default: JSONL on stdout)")
    p.add_argument("--resume", action="store_true",
                   help="skip puzzles (source, index) already in --out and append the rest")
    p.add_argument("--jobs", type=positive_int, default=cores.available(), metavar="N",
                   help="worker processes (default: all cores; 1 runs in this process)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run on an existing Dask cluster, e.g. tcp://host:8786 "
                        "(gridsolve[dask]; workers must see the same paths)")
    p.add_argument("--chunk", type=positive_int, default=None, metavar="N",
                   help="puzzles per task (default: about 16 tasks per worker, at most 8 "
                        "locally and 256 on a cluster)")
    p.add_argument("--timeout", type=seconds, default=60.0, metavar="SECONDS",
                   help="per-puzzle time limit (default 60; status 'unknown' when hit)")
    p.add_argument("--max-nodes", type=positive_int, default=None, metavar="N",
                   help="per-puzzle search node limit")
    p.add_argument("--max-memory", type=memory, default=DEFAULT_MAX_MEMORY, metavar="SIZE",
                   help="memory for a puzzle's SAT or ILP model in each worker (default "
                        "1.5G; 'none': no limit): sat and ilp refuse a bigger one (an error "
                        "row), auto goes on natively")
    p.add_argument("--max-solutions", type=positive_int, default=2, metavar="N",
                   help="stop after N solutions (default 2: proves uniqueness)")
    p.add_argument("--method", default="auto", choices=METHODS,
                   help="solver (default auto: native engine, SAT on hard puzzles)")
    p.add_argument("--sat-solver", default=None, metavar="NAME", help="python-sat solver name")
    p.add_argument("--format", default="auto", choices=INPUT_FORMATS,
                   help="input format (default: detect per file)")
    p.add_argument("--no-limits", action="store_true",
                   help="read files over 10 MB and puzzles over 1000x1000")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run_batch)


class Progress:
    """A rich progress bar on stderr (done / total, rate, ETA, counts by status), or nothing."""

    def __init__(self, total: int, show: bool) -> None:
        self.bar: Any = None
        if not show:
            return
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)
        from rich.progress import Progress as RichProgress
        self.bar = RichProgress(
            BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}/s"), TimeElapsedColumn(), TextColumn("ETA"),
            TimeRemainingColumn(), TextColumn("{task.description}"),
            console=Console(file=sys.stderr), transient=True)
        self.task = self.bar.add_task("", total=total, rate="-")

    def __enter__(self) -> Progress:
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()

    def update(self, tally: Tally) -> None:
        """Show the counts so far."""
        if self.bar is None:
            return
        task = self.bar.tasks[0]
        speed = tally.total / task.elapsed if task.elapsed else 0.0
        text = " ".join(f"{s} {tally.counts[s]}" for s in batch.STATUSES if tally.counts[s])
        self.bar.update(self.task, completed=tally.total, description=text,
                        rate=f"{speed:.1f}")


@contextmanager
def _runner(args: argparse.Namespace) -> Iterator[tuple[Any, int]]:
    """The executor and its number of worker slots: Dask when asked, else local processes."""
    if args.scheduler:
        with batch.dask_executor(args.scheduler) as (executor, slots):
            yield executor, slots
    else:
        with batch.local_executor(args.jobs) as executor:
            yield executor, args.jobs


def _done(args: argparse.Namespace) -> tuple[frozenset[tuple[str, int]],
                                             frozenset[tuple[str, int]]]:
    """The (source, index) pairs already in the output file, when resuming, and those of the
    rows a dead worker failed, which are taken out of the file to be solved again."""
    if not args.resume:
        return frozenset(), frozenset()
    if args.out is None:
        raise GridsolveError("--resume needs --out FILE (the rows to continue)")
    if not os.path.exists(args.out):
        return frozenset(), frozenset()
    rows = batch.read_rows(args.out, repair=True)
    again = frozenset(row.key for row in rows if batch.retried(row))
    if again:
        rows = [row for row in rows if not batch.retried(row)]
        batch.rewrite_rows(args.out, rows)
    return frozenset(row.key for row in rows), again


def _deferred_sigint() -> Any:
    """``workers.deferred_sigint()``, imported for a pool only (multiprocessing and ctypes
    behind it cost a batch in this process start-up time)."""
    from gridsolve.workers import deferred_sigint
    return deferred_sigint()


def _check_writable(path: str | None) -> None:
    """Fail before any work when the output cannot be written."""
    if path is None:
        return
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise GridsolveError(f"{path}: folder {folder} does not exist")
    if os.path.isdir(path) or not os.access(path if os.path.exists(path) else folder, os.W_OK):
        raise GridsolveError(f"{path}: cannot write the results there")


def run_batch(args: argparse.Namespace) -> int:
    _check_writable(args.out)
    done, again = _done(args)
    options = Options(args.max_solutions, args.timeout, args.max_nodes, args.method,
                      args.sat_solver, args.format, not args.no_limits, args.max_memory)
    output = frozenset([os.path.realpath(args.out)] if args.out else [])
    found: list[Found] = list(batch.discover(args.paths, options, skip=output))
    if not found:
        raise GridsolveError("no puzzle files found under " + ", ".join(args.paths))
    total = skipped = 0
    for key in batch.keys(found):
        total += 1
        skipped += key in done
    tally = Tally()
    started = time.perf_counter()
    interrupted = running = False
    try:
        with ExitStack() as stack:
            pool = args.scheduler is None and args.jobs > 1
            writer = stack.enter_context(batch.open_writer(args.out, sys.stdout, args.resume))
            show = sys.stderr.isatty() and not args.no_progress
            progress = stack.enter_context(Progress(total - skipped, show))

            def emit(rows: list[Row]) -> None:
                for row in rows:
                    writer.write(row)
                    tally.add(row)
                progress.update(tally)

            emit([f.error for f in found if f.error is not None and f.error.key not in done])
            left: Iterator[batch.Task] | None = None
            all_here = False
            if args.scheduler is None and args.jobs == 1:  # in this process: no executor
                running = all_here = True
                chunk = args.chunk or batch.auto_chunk(total - skipped, 1, LOCAL_CHUNK_CAP)
                batch.run_here(batch.plan(found, options, chunk, done, again), emit)
            elif pool and batch.here_first(total - skipped, args.jobs):
                # in this process first: a batch too small to pay for a pool starts none
                chunk = args.chunk or batch.auto_chunk(total - skipped, args.jobs,
                                                       LOCAL_CHUNK_CAP)
                running = True
                left = batch.run_here_first(batch.plan(found, options, chunk, done, again),
                                            total - skipped, args.jobs, emit)
                all_here = left is None
            if not all_here:
                # (with a pool, Ctrl-C is raised in run_tasks, between waits)
                stop = stack.enter_context(_deferred_sigint()) if pool else None
                executor, slots = stack.enter_context(_runner(args))
                running = True
                if left is None:
                    cap = LOCAL_CHUNK_CAP if args.scheduler is None else 256
                    chunk = args.chunk or batch.auto_chunk(total - skipped, slots, cap)
                    left = batch.plan(found, options, chunk, done, again)
                batch.run_tasks(executor, left, slots * WINDOW_PER_SLOT, emit, stop)
    except KeyboardInterrupt:  # the pool is torn down and the rows so far are flushed
        interrupted = True
    except GridsolveError:  # a dead worker pool or cluster: the rows so far stay
        if running:
            print_summary(sys.stderr, tally, time.perf_counter() - started, skipped, True)
        raise
    print_summary(sys.stderr, tally, time.perf_counter() - started, skipped, interrupted)
    return 130 if interrupted else 0


def print_summary(out: TextIO, tally: Tally, wall: float, skipped: int,
                  interrupted: bool) -> None:
    """Totals by status, the slowest puzzles and the CPU seconds, on stderr (file names and
    labels as ``printable`` shows them)."""
    head = "interrupted" if interrupted else "done"
    counts = ", ".join(f"{s} {tally.counts[s]}" for s in batch.STATUSES if tally.counts[s])
    print(f"{head}: {tally.total} puzzles ({counts or 'none solved'})"
          + (f"; {skipped} skipped as already done" if skipped else ""), file=out)
    rate = tally.total / wall if wall > 0 else 0.0
    print(f"wall {wall:.2f} s, solver CPU {tally.seconds:.2f} s, {rate:.1f} puzzles/s",
          file=out)
    slow = [r for r in tally.slowest() if r.seconds > 0]
    if slow:
        print("slowest:", file=out)
        for r in slow:
            print(f"  {r.seconds:9.3f} s  {r.status:8}  {printable(r.source)} #{r.index} "
                  f"({printable(r.label)})", file=out)
    if interrupted:
        print("rows so far are written; run again with --resume to go on", file=out)
