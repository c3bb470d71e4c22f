"""One puzzle on several cores: ``gridsolve nonogram solve --jobs 1`` against ``--jobs N``.

    python benchmarks/jobs.py [--sets survey3,random70,random100,hard:icga2020] [--jobs 2]
                              [--rounds 1] [--pick median|best] [--timeout 120] [--limit N]
                              [--previous REV] [--busy N]

Each puzzle is solved by the installed command line, counting to 2, as whole processes: one
core (``--jobs 1``) and ``--jobs N`` in turn (1, N, 1, N, ... for ``--rounds`` rounds), so a
drift of the shared machine's speed hits both alike. Wall time is the process's; CPU time is
user + system of the process and the search processes it started, and of the programs
(Kissat) those started, also when their parent was killed (this process adopts them, Linux). Sets:

    survey3     the survey's three hardest: Gettys (99x59), Sierp (47x40), Thing (36x42)
    survey      all 19 distinct survey puzzles (benchmarks/nonogram.py's set)
    tournament:K  the first K puzzles of each of the 30 tournament sets (a sample of
                nonogram.py's tournament-all)
    randomS     10 random SxS grids at 50% density, the seeds of benchmarks/nonogram.py
    hard:T      the puzzles of tournament set T (e.g. hard:icga2020) that the native team
                does not end within Policy.auto_nodes (2,000) nodes: about those auto hands over
                to SAT (a node count, so the choice does not depend on the machine)
    colour:C    a colour set of benchmarks/colour.py (e.g. colour:rnd30-2c-60, colour:corpus),
                its first 5 puzzles unless --limit says

A row per puzzle (the run of median wall time of the rounds, or with ``--pick best`` the
best; both statuses), then per set the total wall
time over the puzzles both proved and the speed-up of N jobs on them, and how many each
proved. With ``--previous REV`` an earlier version (built from git, ``previous.py``) runs
``--jobs N`` too, in the same rounds, in a last column and a last line. Puzzle data is read
from ../shared/puzzles (or $GRIDSOLVE_PUZZLES).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from gridsolve.nonogram.formats import Entry, read_puzzle, write_puzzle

from nonogram import load_set, puzzles_dir, random_set, tournament_files
from previous import built  # an earlier version built from git

#: The survey's three hardest (issue 22's --jobs target), in gramcracker-survey.
SURVEY3 = ("gettys", "sierp12548", "thing")
CLI = [sys.executable, "-c", "import sys; from gridsolve.cli import main; sys.exit(main())"]


@dataclass
class Runs:
    """One puzzle's runs with one --jobs value: (wall s, CPU s, status) each."""

    runs: list[tuple[float, float, str]] = field(default_factory=list)

    @property
    def best(self) -> tuple[float, float, str]:
        return min(self.runs)

    @property
    def median(self) -> tuple[float, float, str]:
        """The run of median wall time (of an even count, the lower of the two middle)."""
        return sorted(self.runs)[(len(self.runs) - 1) // 2]

    def pick(self, how: str) -> tuple[float, float, str]:
        return self.best if how == "best" else self.median

    @property
    def proven(self) -> bool:
        return all(status != "unknown" for _, _, status in self.runs)


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def adopt_orphans() -> bool:
    """Make this process the reaper of its descendants (Linux PR_SET_CHILD_SUBREAPER): a
    program whose parent was killed (a search process's Kissat, ended by its parent-death
    signal) becomes this process's child, so ``reap_orphans`` waits for it and its CPU time
    reaches ``children_cpu``. False where that is not possible (then such CPU is missed)."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(36, 1, 0, 0, 0) == 0)  # 36: PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def reap_orphans(grace: float = 5.0) -> None:
    """Wait for the adopted programs left by the last command (they are being killed)."""
    until = time.perf_counter() + grace
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:  # none left
            return
        if pid == 0:
            if time.perf_counter() > until:
                return
            time.sleep(0.002)


def solve(path: Path, jobs: int, timeout: float,
          src: Path | None = None) -> tuple[float, float, str]:
    """Wall s, CPU s (the command and its search processes) and status of one solve; with
    ``src``, by the earlier version there (``previous.built``)."""
    env = dict(os.environ) if src is None else dict(os.environ, PYTHONPATH=str(src))
    # as installed: the bytecode is cached (the first run writes it), not compiled at each
    # start (0.04-0.1 s a solve, which a changed module pays under PYTHONDONTWRITEBYTECODE)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cpu = children_cpu()
    started = time.perf_counter()
    done = subprocess.run([*CLI, "nonogram", "solve", str(path), "--jobs", str(jobs),
                           "--timeout", str(timeout), "--json"],
                          capture_output=True, text=True, check=False, env=env)
    wall = time.perf_counter() - started
    reap_orphans()
    try:
        status = json.loads(done.stdout)["status"]
    except (ValueError, KeyError):
        sys.exit(f"{path}: gridsolve failed (exit {done.returncode}): {done.stderr.strip()}")
    return wall, children_cpu() - cpu, status


def set_files(name: str, tmp: Path, limit: int | None) -> list[Path]:
    """The set's puzzles as files (random ones written to ``tmp``)."""
    if name == "survey3":
        base = puzzles_dir() / "gramcracker-survey"
        files = [base / f"{label}.txt" for label in SURVEY3]
        for f in files:
            read_puzzle(str(f))  # a clear error now if the data is not there
    elif name.startswith("random") and name[6:].isdigit():
        files = []
        for entry in random_set(int(name[6:])):
            f = tmp / f"{entry.label}.non"
            f.write_text(write_puzzle(entry.puzzle, "non"))
            files.append(f)
    elif name == "survey" or (name.startswith("tournament:") and name[11:].isdigit()):
        files = []
        for entry in survey_or_sample(name):
            f = tmp / f"{entry.source}-{entry.label}.non"
            f.write_text(write_puzzle(entry.puzzle, "non"))
            files.append(f)
    elif name.startswith("colour:"):
        from colour import chosen_sets, make_set  # (benchmarks/colour.py)
        files = []
        for set_name in chosen_sets(name[7:]):
            for label, puzzle, _ in make_set(set_name, limit or 5, puzzles_dir()):
                f = tmp / f"{set_name}-{label.lstrip('#')}.json"
                f.write_text(write_puzzle(puzzle, "json"))
                files.append(f)
    elif name.startswith("hard:"):
        files = []
        for entry in hard_entries(name[5:]):
            f = tmp / f"{name[5:]}-{entry.label}.non"
            f.write_text(write_puzzle(entry.puzzle, "non"))
            files.append(f)
    else:
        sys.exit(f"unknown set {name!r}: survey3, survey, randomS (S = 40, 50, 70, 100, ...), "
                 "tournament:K (K a count), hard:T (T a tournament set) or colour:C (C a set "
                 "of benchmarks/colour.py)")
    return files[:limit]


def survey_or_sample(name: str) -> list[Entry]:
    """The survey's 19 puzzles, or the first K of each tournament set (``tournament:K``), each
    named apart by its ``source``: survey-NN or the tournament set's name."""
    if name == "survey":
        return [Entry(f"survey-{i:02d}", i, e.label, e.puzzle, e.goal)
                for i, e in enumerate(load_set("survey", puzzles_dir()))]
    k = int(name[11:])
    return [Entry(f.stem, e.index, e.label, e.puzzle, e.goal)
            for f in tournament_files(puzzles_dir())
            for e in load_set(f.stem, puzzles_dir())[:k]]


def hard_entries(tournament: str) -> list[Entry]:
    """The entries of a tournament set the native team does not end within Policy.auto_nodes
    nodes."""
    from gridsolve.nonogram.policy import DEFAULT_POLICY
    from gridsolve.nonogram.engine import SearchLimits, Team
    hard = []
    for entry in load_set(tournament, puzzles_dir()):
        team = Team(entry.puzzle, 2)  # type: ignore[arg-type]
        if not team.run(SearchLimits(max_nodes=DEFAULT_POLICY.auto_nodes)):
            hard.append(entry)
    return hard


def fmt(x: float) -> str:
    return f"{x:.2f}"


@contextlib.contextmanager
def busy(n: int) -> Iterator[None]:
    """``n`` processes that keep a core each busy while the block runs."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default="survey3,random70,random100")
    ap.add_argument("--jobs", type=int, default=2, help="processes against one (default 2)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--pick", choices=("median", "best"), default="median",
                    help="each puzzle's run shown of its rounds: median wall time (default; "
                         "the searches of --jobs N are not deterministic) or best")
    ap.add_argument("--timeout", type=float, default=120.0, help="per solve (s)")
    ap.add_argument("--limit", type=int, default=None, help="first N puzzles of each set")
    ap.add_argument("--previous", metavar="REV", default=None,
                    help="also run --jobs N of an earlier version (a git revision), puzzle by "
                         "puzzle in the same run")
    ap.add_argument("--busy", type=int, default=0, metavar="N",
                    help="N busy-loop processes run the whole time (a busy machine, as "
                         "stress --cpu N; issue 56's 'other core busy' rows)")
    args = ap.parse_args()
    with contextlib.ExitStack() as stack:
        if args.busy:
            stack.enter_context(busy(args.busy))
        src = None
        if args.previous:
            src = stack.enter_context(built(args.previous))
            if src is None:
                sys.exit(f"--previous: {args.previous} could not be archived or built")
        run(args, src)


def run(args: argparse.Namespace, src: Path | None) -> None:
    """The table (see the module docstring); with ``src``, the earlier version's column."""
    n = args.jobs
    adopted = adopt_orphans()
    print(f"jobs benchmark: --jobs 1 against --jobs {n}, count to 2, timeout {args.timeout:g} s, "
          f"{args.pick} of {args.rounds}, {os.cpu_count()} cores"
          + (f", {args.busy} kept busy by other processes" if args.busy else "")
          + ("" if adopted else "; CPU misses programs whose parent was killed"))
    print()
    prev = f" {args.previous} jobs {n} wall (s) |" if src else ""
    print(f"| set | puzzle | jobs 1 wall (s) | jobs 1 CPU (s) | jobs {n} wall (s) "
          f"| jobs {n} CPU (s) | speed-up | statuses |{prev}")
    print("|---|---|---|---|---|---|---|---|" + ("---|" if src else ""))
    totals = []
    previous_total: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets.split(","):
            one_total = many_total = 0.0
            proven = [0, 0]
            files = set_files(name, Path(tmp), args.limit)
            for path in files:
                one, many, earlier = Runs(), Runs(), Runs()
                for _ in range(args.rounds):
                    one.runs.append(solve(path, 1, args.timeout))
                    many.runs.append(solve(path, n, args.timeout))
                    if src:
                        earlier.runs.append(solve(path, n, args.timeout, src))
                (w1, c1, s1), (wn, cn, sn) = one.pick(args.pick), many.pick(args.pick)
                proven[0] += one.proven
                proven[1] += many.proven
                both = one.proven and many.proven
                if both:
                    one_total += w1
                    many_total += wn
                speed = f"{w1 / wn:.2f}x" if both else "-"
                was = ""
                if src:
                    wp, _, sp = earlier.pick(args.pick)
                    was = f" {fmt(wp)} ({sp}) |" if earlier.proven else f" - ({sp}) |"
                    if both and earlier.proven:  # (earlier, this) --jobs N on them
                        a, b = previous_total.get(name, (0.0, 0.0))
                        previous_total[name] = (a + wp, b + wn)
                print(f"| {name} | {path.stem} | {fmt(w1)} | {fmt(c1)} | {fmt(wn)} | {fmt(cn)} "
                      f"| {speed} | {s1} / {sn} |{was}", flush=True)
            totals.append((name, len(files), proven, one_total, many_total))
    print()
    print(f"| set | puzzles | proven, jobs 1 | proven, jobs {n} | jobs 1 wall s (both proved) "
          f"| jobs {n} wall s | speed-up |")
    print("|---|---|---|---|---|---|---|")
    for name, count, proven, one_total, many_total in totals:
        speed = f"{one_total / many_total:.2f}x" if many_total else "-"
        print(f"| {name} | {count} | {proven[0]} | {proven[1]} | {fmt(one_total)} "
              f"| {fmt(many_total)} | {speed} |")
    if src:
        print()
        print(f"--jobs {n}, {args.previous} against this version, wall s on the puzzles all "
              "three proved: " + ", ".join(f"{name} {fmt(a)} -> {fmt(b)} ({a / b:.2f}x)"
                                           for name, (a, b) in previous_total.items()))


if __name__ == "__main__":
    main()
