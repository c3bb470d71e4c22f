"""Do the limits hold at every size? Each method on big random puzzles and long lines, one table.

For each method (native, sat, ilp, auto; ``hint``: the next step from the empty board, and
``hint-pos``: from a position with the left half of every row set; ``explain`` and ``rate``,
the commands) and each puzzle (random
grids at 50% density of 100x100, 200x200, 300x300 and 1000x1000; single rows of 10^4, 3x10^4
and 10^5 cells whose columns force every cell), runs ``gridsolve nonogram solve FILE
--timeout T --method M --json`` (``gridsolve nonogram hint FILE [--grid POS] --timeout T
--json``) as its own process and measures the wall time from start to exit, the overrun past
the timeout, and the peak resident memory of the whole process tree (the CLI and every process
it starts: SAT children, CBC), sampled from /proc every 20 ms. Target (issue 21): every overrun
within max(0.5 s, 10% of the timeout) and every peak under 2 GB with the default settings.

``--methods png,svg,gif,html,steps`` (not in the default list) times what a solve shows: the
native solve with ``--png``, ``--svg``, ``--animate x.gif``, ``--animate x.html`` or
``--steps``. Pictures and animations are made after the solve, so after the limit: their
target is the same overrun plus OUTPUT_SECONDS.

A run that passes ``--kill-after`` seconds or ``--kill-rss`` MB is killed (status ``killed``)
so a broken limit cannot take the shared machine down; the table shows what it had reached.

    .venv/bin/python benchmarks/limits.py [--timeout 3] [--methods native,auto] [--sizes 100,1x10000]
        [--gridsolve PATH]   # another install's gridsolve, e.g. the previous version

Linux only (/proc). Exit code 1 when a row misses the target.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from gridsolve.nonogram.formats import write_puzzle
from gridsolve.nonogram.generate import random_grid
from gridsolve.nonogram.model import puzzle_from_grid

METHODS = ("native", "sat", "ilp", "auto", "hint", "hint-pos", "explain", "rate")
#: What a solve shows past its answer (not in the default methods; ``--methods png,...``):
#: the native solve with a picture, an animation, or ``--steps``' story, each as its option.
#: A picture or animation is made after the solve, so after the limit, within OUTPUT_SECONDS.
OUTPUTS = {"png": "--png", "svg": "--svg", "gif": "--animate", "html": "--animate",
           "steps": "--steps"}
OUTPUT_SECONDS = 5.0
#: Puzzle sizes as WIDTHxHEIGHT; a bare number N is an NxN random grid.
SIZES = ("100", "200", "300", "1000", "10000x1", "30000x1", "100000x1")
#: The target on peak memory of the whole process tree, in MB.
RSS_TARGET_MB = 2048
PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass
class Row:
    """One run: the method, the puzzle, what it took and what it said."""

    method: str
    size: str
    wall: float
    rss_mb: float
    status: str

    def overrun(self, timeout: float) -> float:
        return self.wall - timeout

    def ok(self, timeout: float) -> bool:
        grace = OUTPUT_SECONDS if self.method in ("png", "svg", "gif", "html") else 0
        return (self.overrun(timeout) <= max(0.5, 0.1 * timeout) + grace
                and self.rss_mb < RSS_TARGET_MB
                and self.status != "killed" and not self.status.startswith("error"))


def make_puzzle(size: str, folder: Path) -> Path:
    """The random puzzle of this size (fixed seed per size), written as a text file."""
    width, _, height = size.partition("x")
    w, h = int(width), int(height or width)
    grid = random_grid(w, h, 0.5, random.Random(w * 7919 + h))
    path = folder / f"{w}x{h}.txt"
    path.write_text(write_puzzle(puzzle_from_grid(grid), "text"))
    path.with_suffix(".pos").write_text(
        "\n".join(row[:w // 2] + "?" * (w - w // 2) for row in grid) + "\n")
    return path


def tree_rss(root: int) -> int:
    """Resident bytes of a process and all its descendants (0 once it is gone)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry)
        children.setdefault(int(fields[1]), []).append(pid)  # fields[1]: the parent's pid
        rss[pid] = int(fields[21]) * PAGE  # fields[21]: resident pages
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo += children.get(pid, [])
    return total


def run(gridsolve: str, method: str, path: Path, timeout: float, kill_after: float,
        kill_rss_mb: float) -> tuple[float, float, str]:
    """Wall seconds, peak tree RSS (MB) and status of one CLI run."""
    if method in ("explain", "rate"):
        args = [gridsolve, "nonogram", method, str(path), "--timeout", str(timeout)]
        args += ["--json"] if method == "rate" else []
    elif method.startswith("hint"):
        args = [gridsolve, "nonogram", "hint", str(path), "--timeout", str(timeout), "--json"]
        if method == "hint-pos":
            args += ["--grid", str(path.with_suffix(".pos"))]
    elif method in OUTPUTS:
        args = [gridsolve, "nonogram", "solve", str(path), "--timeout", str(timeout),
                "--method", "native", "--jobs", "1"]
        args += ["--steps"] if method == "steps" else ["--json", OUTPUTS[method],
                                                       str(path.with_suffix("." + method))]
    else:
        args = [gridsolve, "nonogram", "solve", str(path), "--timeout", str(timeout),
                "--method", method, "--json"]
    started = time.perf_counter()
    # output to files, not pipes: a solution of 100,000 cells would fill a pipe and block
    out_file, err_file = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    proc = subprocess.Popen(args, stdout=out_file, stderr=err_file, start_new_session=True)
    peak, killed = 0, False
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        if time.perf_counter() - started > kill_after or peak > kill_rss_mb * 2**20:
            os.killpg(proc.pid, signal.SIGKILL)
            killed = True
            break
        time.sleep(0.02)
    proc.wait()
    wall = time.perf_counter() - started
    out_file.seek(0)
    err_file.seek(0)
    out, err = out_file.read(), err_file.read()
    out_file.close()
    err_file.close()
    try:  # whatever the session left behind (a SAT child, CBC) goes too
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    if killed:
        return wall, peak / 2**20, "killed"
    try:
        if method == "steps":  # the closing status line, after the story and the grid
            said = {"status": next(line.split()[1] for line in reversed(out.splitlines())
                                   if line.startswith(b"status: ")).decode()}
        elif method == "explain":  # its account's last sentence, before the grid
            if not out.strip():
                raise ValueError("no account")
            said = {"status": "stopped" if b"The time limit came first" in out else "ended"}
        else:
            said = json.loads(out)
        status = said["kind"] if method.startswith("hint") else said["status"]
    except (ValueError, KeyError, TypeError, StopIteration, IndexError):
        line = err.decode(errors="replace").strip().splitlines()
        if line and "over the memory limit" in line[-1]:
            status = "refused: model over --max-memory"
        elif line and "write an .html animation instead" in line[-1]:
            status = "refused: too big for a GIF"
        elif line:
            status = "error: " + line[-1].removeprefix("gridsolve: error: ")[:60]
        else:
            status = f"error: exit code {proc.returncode}"
    return wall, peak / 2**20, status


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--timeout", type=float, default=3.0)
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--sizes", default=",".join(SIZES))
    ap.add_argument("--gridsolve", default=str(Path(sys.executable).with_name("gridsolve")),
                    help="the gridsolve command to measure (default: this environment's)")
    ap.add_argument("--kill-after", type=float, default=60.0, metavar="SECONDS")
    ap.add_argument("--kill-rss", type=float, default=6144.0, metavar="MB")
    args = ap.parse_args()
    rows: list[Row] = []
    print(f"limits: gridsolve nonogram solve (hint, explain, rate) --timeout {args.timeout:g}, one process "
          f"per run ({args.gridsolve}); target: overrun <= {max(0.5, 0.1 * args.timeout):g} s, "
          f"peak RSS of the process tree < {RSS_TARGET_MB} MB")
    print(f"{'method':<8} {'puzzle':>9} {'wall s':>8} {'overrun':>8} {'peak MB':>8}  status")
    with tempfile.TemporaryDirectory(prefix="gridsolve-limits-") as tmp:
        for size in args.sizes.split(","):
            path = make_puzzle(size, Path(tmp))
            label = size if "x" in size else f"{size}x{size}"
            for method in args.methods.split(","):
                wall, rss, status = run(args.gridsolve, method, path, args.timeout,
                                        args.kill_after, args.kill_rss)
                row = Row(method, label, wall, rss, status)
                rows.append(row)
                mark = "" if row.ok(args.timeout) else "  <- misses the target"
                print(f"{method:<8} {label:>9} {wall:8.2f} {row.overrun(args.timeout):+8.2f} "
                      f"{rss:8.0f}  {status}{mark}", flush=True)
    missed = sum(not r.ok(args.timeout) for r in rows)
    print(f"{len(rows) - missed} of {len(rows)} runs within the limits")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
