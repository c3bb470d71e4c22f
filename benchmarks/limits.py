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

``--extra`` rows (issue 53), each with its own command and limit, after the table (all of
them unless told; ``--only-extra`` runs only these): local moves on lines of one-cell blocks
(a 64x3000 checkerboard with ``--method auto --jobs 1 --timeout 20``; a 1x99,999 line of
50,000 one-cell blocks with ``--max-nodes 1 --timeout 10``), ``calendar design --search``
over a 10,000-piece pool of copies of the pentominoes at ``--timeout 2``, and ILP on
100,000-cell lines that line logic solves at ``--timeout 20``.

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
from collections.abc import Callable
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
    wall, rss, out, err, code = measure(args, kill_after, kill_rss_mb)
    if code is None:
        return wall, rss, "killed"
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
            status = f"error: exit code {code}"
    return wall, rss, status


@dataclass
class ExtraRow(Row):
    """An --extra row: its own command and limit."""

    limit: float = 0.0

    def overrun(self, timeout: float) -> float:
        return self.wall - self.limit

    def ok(self, timeout: float) -> bool:
        return super().ok(self.limit)


def _checkerboard(folder: Path) -> Path:
    grid = tuple(("#." * 1500)[r % 2:] + ("#." * 1500)[:r % 2] for r in range(64))
    path = folder / "checkerboard64x3000.txt"
    path.write_text(write_puzzle(puzzle_from_grid(grid), "text"))
    return path


def _line(folder: Path, line: str, name: str) -> Path:
    path = folder / f"{name}.txt"
    path.write_text(write_puzzle(puzzle_from_grid((line,)), "text"))
    return path


def _pool(folder: Path) -> Path:
    """10,000 copies of the pentominoes, each turned or mirrored at random (181 KB)."""
    from gridsolve.tiling import presets
    from gridsolve.tiling.formats import pieces_text
    from gridsolve.tiling.model import Piece, orientations
    rng = random.Random(53)
    pents = presets.named_pieces("pentominoes")
    pool = tuple(Piece(f"Q{i + 1}", rng.choice(orientations(rng.choice(pents).cells)))
                 for i in range(10_000))
    path = folder / "pool10000.pieces"
    path.write_text(pieces_text(pool))
    return path


#: The --extra rows: name -> (the limit in seconds, the command's arguments after
#: ``gridsolve``, given the folder of its files).
EXTRA: dict[str, tuple[float, Callable[[Path], list[str]]]] = {
    "moves-checkerboard": (20.0, lambda d: ["nonogram", "solve", str(_checkerboard(d)),
                                            "--method", "auto", "--jobs", "1", "--timeout",
                                            "20", "--json"]),
    "moves-1x99999": (10.0, lambda d: ["nonogram", "solve",
                                       str(_line(d, ("#." * 50_000)[:99_999], "ones99999")),
                                       "--max-nodes", "1", "--timeout", "10", "--json"]),
    "design-pool10000": (2.0, lambda d: ["calendar", "design", "--search", "--pool",
                                         str(_pool(d)), "--timeout", "2", "--json"]),
    "ilp-1x100000-full": (20.0, lambda d: ["nonogram", "solve",
                                           str(_line(d, "#" * 100_000, "full")), "--method",
                                           "ilp", "--timeout", "20", "--json"]),
    "ilp-1x100000-ones": (20.0, lambda d: ["nonogram", "solve",
                                           str(_line(d, "#." * 50_000, "ones")), "--method",
                                           "ilp", "--timeout", "20", "--json"]),
    "ilp-1x100000-nines": (20.0, lambda d: ["nonogram", "solve",
                                            str(_line(d, ("#" * 9 + ".") * 10_000, "nines")),
                                            "--method", "ilp", "--timeout", "20", "--json"]),
}


def measure(argv: list[str], kill_after: float, kill_rss_mb: float
            ) -> tuple[float, float, bytes, bytes, int | None]:
    """Wall seconds, peak tree RSS (MB), output, errors and exit code of one command (None:
    killed at ``kill_after`` seconds or ``kill_rss_mb``)."""
    started = time.perf_counter()
    # output to files, not pipes: a solution of 100,000 cells would fill a pipe and block
    out_file, err_file = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    proc = subprocess.Popen(argv, stdout=out_file, stderr=err_file, start_new_session=True)
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
    return wall, peak / 2**20, out, err, None if killed else proc.returncode


def run_extra(name: str, gridsolve: str, folder: Path, kill_after: float,
              kill_rss_mb: float) -> ExtraRow:
    """One --extra row, run and read."""
    limit, argv = EXTRA[name]
    wall, rss, out, err, code = measure([gridsolve, *argv(folder)], kill_after, kill_rss_mb)
    status = "killed" if code is None else f"error: exit code {code}"
    if code is not None:
        try:
            said = json.loads(out)
            search = said.get("search")
            status = said["status"] if search is None else (
                "searched all" if search["complete"] else
                f"stopped: {search['counted']} of {search['sets']} sets")
        except (ValueError, KeyError, TypeError):
            line = err.decode(errors="replace").strip().splitlines()
            if line:
                status = "error: " + line[-1].removeprefix("gridsolve: error: ")[:60]
    return ExtraRow(name, "", wall, rss, status, limit)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--timeout", type=float, default=3.0)
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--sizes", default=",".join(SIZES))
    ap.add_argument("--gridsolve", default=str(Path(sys.executable).with_name("gridsolve")),
                    help="the gridsolve command to measure (default: this environment's)")
    ap.add_argument("--kill-after", type=float, default=60.0, metavar="SECONDS")
    ap.add_argument("--kill-rss", type=float, default=6144.0, metavar="MB")
    ap.add_argument("--extra", default=",".join(EXTRA), help="the issue-53 rows to run after "
                    "the table, by name ('none': none)")
    ap.add_argument("--only-extra", action="store_true", help="only the --extra rows")
    ap.add_argument("--web", default="idle,slow,steps,soak", help="the web server's rows "
                    "(benchmarks/limits_web.py: idle,slow,plain,steps,soak; 'none': none)")
    args = ap.parse_args()
    rows: list[Row] = []
    print(f"limits: gridsolve nonogram solve (hint, explain, rate) --timeout {args.timeout:g}, one process "
          f"per run ({args.gridsolve}); target: overrun <= {max(0.5, 0.1 * args.timeout):g} s, "
          f"peak RSS of the process tree < {RSS_TARGET_MB} MB")
    print(f"{'method':<8} {'puzzle':>9} {'wall s':>8} {'overrun':>8} {'peak MB':>8}  status")
    with tempfile.TemporaryDirectory(prefix="gridsolve-limits-") as tmp:
        for size in [] if args.only_extra else args.sizes.split(","):
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
        extra = [] if args.extra == "none" else args.extra.split(",")
        if extra:
            print(f"{'extra row':<19} {'limit s':>7} {'wall s':>8} {'overrun':>8} "
                  f"{'peak MB':>8}  status")
        for name in extra:
            row = run_extra(name, args.gridsolve, Path(tmp), args.kill_after, args.kill_rss)
            rows.append(row)
            mark = "" if row.ok(args.timeout) else "  <- misses the target"
            print(f"{name:<19} {row.limit:7g} {row.wall:8.2f} {row.overrun(0):+8.2f} "
                  f"{row.rss_mb:8.0f}  {row.status}{mark}", flush=True)
    missed = sum(not r.ok(args.timeout) for r in rows)
    print(f"{len(rows) - missed} of {len(rows)} runs within the limits")
    if args.web != "none":  # issue 53: gridsolve serve under idle/slow connections, steps, a soak
        import limits_web
        missed += limits_web.main(args.web.split(","), args.gridsolve)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
