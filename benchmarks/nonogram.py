"""Nonogram benchmark: gridsolve (native engine, or auto) against a SAT baseline, one core.

    python benchmarks/nonogram.py [--methods native,auto] [--sets taai2011,survey,janko]
                                  [--limit N] [--no-sat]
    python benchmarks/nonogram.py --sets tournament-all --no-sat   # all 30,000, per-set rows
    python benchmarks/nonogram.py --sets random                    # 40x40 .. 100x100, with SAT
    python benchmarks/nonogram.py --sets random50 --each           # and a line per puzzle
    python benchmarks/nonogram.py --previous fe9f875 --methods auto  # and that version's auto

Each puzzle is solved to a proven status (count to 2: unique / multiple / none). The SAT
baseline is python-sat's CaDiCaL 1.9.5 on the standard block-start encoding, counting to 2,
run in the same process. Every solution is checked against the clues (by the engine) and,
for unique puzzles, against the goal stored with the puzzle. Results go to
bench-results/nonogram-latest.json; the previous run's totals are shown beside this one's.
With ``--previous REV`` an earlier version (built from git, ``previous.py``) solves every
puzzle right after this one, in a child process, with the same methods and timeout, as
rows "METHOD@REV" (its time is measured around the same call, inside the child; its
solutions are checked against the clues here).
Puzzle data is read from ../shared/puzzles (or $GRIDSOLVE_PUZZLES).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from gridsolve.nonogram.engine import Result, SearchLimits, analyse
from gridsolve.nonogram.formats import Entry, iter_entries, write_puzzle
from gridsolve.nonogram.model import AnyPuzzle, Puzzle, is_any_solution, puzzle_from_grid

from previous import built  # an earlier version built from git

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench-results"


def puzzles_dir() -> Path:
    env = os.environ.get("GRIDSOLVE_PUZZLES")
    path = Path(env) if env else ROOT.parent / "shared" / "puzzles"
    if not path.is_dir():
        sys.exit(f"benchmark data not found at {path} (set GRIDSOLVE_PUZZLES)")
    return path


#: The benchmark sets, all read from the shared puzzle corpora.
SETS = {
    "taai2011": "1000 tournament 25x25 puzzles",
    "survey": "the 19 distinct webpbn survey puzzles: glpk-pbn, gramcracker, nonogram-db",
    "janko": "2,338 janko.at puzzles, puzzlekit JSON",
    "tournament-all": "all 30 tournament sets (30,000 25x25 puzzles), a row per set and a total; "
                      "a seeded sample of each set is checked against its shipped solutions",
    "random": "10 each of 40x40, 50x50, 70x70 and 100x100 random grids at 50%% density "
              "(fixed seeds; several solutions are common)",
    "hardest": "the hardest puzzle of the shared corpora outside the sets above: Frans "
               "Faase's 95x80 (pynogram's examples; the webpbn survey's 'Faase'), minutes "
               "(use --timeout 600 --sat-timeout 600)",
}

#: The puzzles of the hardest set, in the shared corpora.
HARDEST = ("pynogram-examples/frans_faase.txt",)

#: Puzzles of each tournament set whose shipped solution is checked (tournament-all).
SAMPLE = 20
RANDOM_SIZES = (40, 50, 70, 100)


def tournament_files(base: Path) -> list[Path]:
    """The 30 tournament question files."""
    return sorted((base / "nonogramrecord-tournaments/question").glob("*.txt"))


def random_set(size: int) -> list[Entry]:
    """Ten random grids at 50% density from fixed seeds; each is one (not always the) solution."""
    entries = []
    for i in range(10):
        rng = random.Random(size * 1000 + i)
        grid = tuple("".join("#" if rng.random() < 0.5 else "." for _ in range(size))
                     for _ in range(size))
        label = f"rand{size}-{i}"
        entries.append(Entry(label, i, label, puzzle_from_grid(grid, title=label), grid))
    return entries


def load_set(name: str, base: Path) -> list[Entry]:
    """The puzzles of one benchmark set (survey puzzles deduplicated across formats)."""
    if name == "taai2011":
        return list(iter_entries(str(base / "nonogramrecord-tournaments/question/taai2011.txt")))
    if name == "janko":
        return list(iter_entries(str(base / "puzzlekit-janko/Nonogram_dataset.json")))
    if name == "survey":
        files = (sorted((base / "glpk-pbn").glob("*.dat"))
                 + sorted((base / "gramcracker-survey").glob("*.txt"))
                 + sorted((base / "nonogram-db/db/webpbn").glob("*.non")))
        seen: dict[tuple[object, object], Entry] = {}
        for f in files:
            for e in iter_entries(str(f)):
                key = (e.puzzle.rows, e.puzzle.cols)
                if key not in seen:
                    seen[key] = Entry(e.source, e.index, f.stem, e.puzzle, e.goal)
                elif seen[key].goal is None and e.goal is not None:
                    old = seen[key]
                    seen[key] = Entry(old.source, old.index, old.label, old.puzzle, e.goal)
        return list(seen.values())
    if name.startswith("random") and name[6:].isascii() and name[6:].isdigit():
        return random_set(int(name[6:]))
    if name == "hardest":
        return [e for f in HARDEST for e in iter_entries(str(base / f))]
    path = base / "nonogramrecord-tournaments/question" / f"{name}.txt"
    if path.is_file():
        return list(iter_entries(str(path)))
    raise SystemExit(f"unknown set {name!r}")


@dataclass
class Run:
    """The outcome of one solver over one set."""

    seconds: list[float] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)
    wrong: int = 0
    checked: int = 0
    last: Result | None = None  # the latest puzzle's result (for --each)

    @property
    def proven(self) -> int:
        return sum(s in ("unique", "multiple", "none") for s in self.statuses)

    @property
    def solved(self) -> int:
        return sum(s in ("unique", "multiple") for s in self.statuses)


def is_wrong(result: Result, goal: tuple[str, ...] | None) -> bool:
    """Does a proven status contradict a known solution (the goal)?"""
    if goal is None:
        return False
    if result.status == "none":
        return True
    return result.status == "unique" and result.solutions[0] != goal


def run_one(solve: Callable[[Entry], Result], entry: Entry, run: Run, sample: bool) -> Result:
    t = time.perf_counter()
    result = solve(entry)
    seconds = time.perf_counter() - t
    if isinstance(solve, Previous):
        # timed in the child, around the same call as ours; its solutions are checked here
        seconds = result.seconds
        run.wrong += sum(not is_any_solution(entry.puzzle, g) for g in result.solutions)
    run.seconds.append(seconds)
    run.statuses.append(result.status)
    run.last = result
    run.wrong += is_wrong(result, entry.goal)
    if sample and entry.goal is not None:
        # The shipped solution must fit the clues, and a proven status must agree with it.
        run.checked += 1
        run.wrong += not is_any_solution(entry.puzzle, entry.goal)
    return result


#: Stats of auto's two sides shown by --each (the native team's nodes, SAT's conflicts...).
EACH_STATS = ("native_nodes", "sat_conflicts", "rounds", "nearby")


def print_each(name: str, entry: Entry, method: str, run: Run) -> None:
    """One puzzle's line (--each): set, puzzle, solver, status, seconds, nodes, auto's sides."""
    result = run.last
    assert result is not None
    sides = " ".join(f"{k}={result.stats[k]}" for k in EACH_STATS if k in result.stats)
    print(f"{name} {entry.label} {method} {result.status} {run.seconds[-1]:.3f} s "
          f"{result.nodes} nodes {sides}".rstrip(), flush=True)


def ours(timeout: float, method: str) -> Callable[[Entry], Result]:
    """gridsolve with the given method: native (the C engine alone) or auto (native, then SAT)."""
    if method == "native":
        return lambda e: analyse(e.puzzle, 2, SearchLimits(timeout=timeout))
    from gridsolve.nonogram import backends
    return lambda e: backends.analyse(e.puzzle, 2, SearchLimits(timeout=timeout), method)


_CHILD = r"""
import json, sys, time
import gridsolve
from gridsolve.nonogram.model import Puzzle
from gridsolve.nonogram.engine import SearchLimits, analyse
print(json.dumps(gridsolve.__file__), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    if "json" in req:  # a colour puzzle, in gridsolve's JSON
        from gridsolve.nonogram.formats import parse_puzzle
        puzzle = parse_puzzle(req["json"], "json")
    else:
        puzzle = Puzzle(req["rows"], req["cols"])
    limits = SearchLimits(timeout=req["timeout"])
    t = time.perf_counter()
    if req["method"] == "native":
        r = analyse(puzzle, 2, limits)
    else:
        from gridsolve.nonogram import backends
        r = backends.analyse(puzzle, 2, limits, req["method"])
    seconds = time.perf_counter() - t
    print(json.dumps({"status": r.status, "solutions": r.solutions, "nodes": r.nodes,
                      "seconds": seconds}), flush=True)
"""


class Previous:
    """One method of an earlier version, solving puzzles in a child process (see ``previous``)."""

    def __init__(self, src: Path, method: str, timeout: float) -> None:
        self.method, self.timeout = method, timeout
        env = dict(os.environ, PYTHONPATH=str(src))
        self.child = subprocess.Popen([sys.executable, "-c", _CHILD], env=env, text=True,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.child.stdout is not None
        where = json.loads(self.child.stdout.readline())
        if not where.startswith(str(src)):
            sys.exit(f"the previous version ran from {where}, not {src}")

    def __call__(self, entry: Entry) -> Result:
        return self.solve(entry.puzzle, entry.label)

    def solve(self, puzzle: AnyPuzzle, label: str) -> Result:
        """The earlier version's answer (a colour puzzle goes as gridsolve JSON)."""
        assert self.child.stdin is not None and self.child.stdout is not None
        req: dict[str, object] = {"timeout": self.timeout, "method": self.method}
        if isinstance(puzzle, Puzzle):
            req.update(rows=puzzle.rows, cols=puzzle.cols)
        else:
            req["json"] = write_puzzle(puzzle, "json")
        self.child.stdin.write(json.dumps(req) + "\n")
        self.child.stdin.flush()
        line = self.child.stdout.readline()
        if not line:
            sys.exit(f"the previous version stopped on {label}")
        out = json.loads(line)
        return Result(out["status"], tuple(tuple(g) for g in out["solutions"]), out["nodes"],
                      out["seconds"], ())

    def close(self) -> None:
        if self.child.stdin is not None:
            self.child.stdin.close()
        self.child.wait()


def sat_baseline(timeout: float | None) -> Callable[[Entry], Result]:
    from gridsolve.nonogram.backends import sat
    limits = SearchLimits(timeout=timeout)
    return lambda e: sat.analyse(e.puzzle, 2, limits, solver="cadical195", encoding="start")


Row = tuple[str, str, int, int, int, int, int, float, float, float, float | None, float | None]


def add_rows(name: str, runs: dict[str, Run], summary: dict[str, dict[str, float]],
             previous: dict[str, dict[str, float]], rows: list[Row]) -> None:
    """One table row per solver of a set; the SAT column is the baseline's total over ours."""
    sat_total = sum(runs[SAT].seconds) if SAT in runs else None
    summary[name] = {}
    for m, run in runs.items():
        total = sum(run.seconds)
        summary[name][m] = total
        rows.append((name, m, len(run.seconds), run.solved, run.proven, run.wrong, run.checked,
                     total, statistics.median(run.seconds) if run.seconds else 0.0,
                     max(run.seconds, default=0.0), previous.get(name, {}).get(m),
                     sat_total / total if sat_total and total and m != SAT else None))


def fmt(x: float) -> str:
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


SAT = "sat-baseline"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="taai2011,survey,janko",
                    help="comma-separated, from: " + "; ".join(f"{k} ({v})" for k, v in SETS.items())
                    + " (default: taai2011,survey,janko)")
    ap.add_argument("--limit", type=int, default=None, help="first N puzzles of each set")
    ap.add_argument("--methods", default="native,auto",
                    help="gridsolve methods measured (native: the C engine alone; auto: native, "
                         "then SAT after a small node budget)")
    ap.add_argument("--no-sat", action="store_true", help="skip the SAT baseline")
    ap.add_argument("--timeout", type=float, default=60.0, help="per puzzle, gridsolve (s)")
    ap.add_argument("--previous", default="", metavar="REV",
                    help="also run these methods of an earlier version (a git revision), "
                         "puzzle by puzzle in the same run")
    ap.add_argument("--sat-timeout", type=float, default=120.0,
                    help="per survey, hardest and random puzzle, SAT (s); tournament/janko SAT runs "
                         "unlimited")
    ap.add_argument("--each", action="store_true",
                    help="a line per puzzle and solver as it ends: status, seconds, nodes, and "
                         "auto's sides (native nodes, SAT conflicts, turns, local moves)")
    args = ap.parse_args()
    base = puzzles_dir()
    names = [n for n in args.sets.split(",") if n]
    if "tournament-all" in names:
        i = names.index("tournament-all")
        names[i:i + 1] = [f.stem for f in tournament_files(base)]
        tournament = {f.stem for f in tournament_files(base)}
    else:
        tournament = set()
    if "random" in names:
        i = names.index("random")
        names[i:i + 1] = [f"random{n}" for n in RANDOM_SIZES]
    latest = RESULTS / "nonogram-latest.json"
    previous = json.loads(latest.read_text()).get("sets", {}) if latest.exists() else {}
    solvers: dict[str, Callable[[Entry], Result]] = {
        m: ours(args.timeout, m) for m in args.methods.split(",") if m}
    with ExitStack() as stack:
        if args.previous:
            src = stack.enter_context(built(args.previous))
            if src is None:
                sys.exit(f"--previous: {args.previous} could not be archived or built")
            for m in list(solvers):
                child = Previous(src, m, args.timeout)
                stack.callback(child.close)
                solvers[f"{m}@{args.previous}"] = child
        run_sets(args, names, tournament, solvers, previous, latest)


def run_sets(args: argparse.Namespace, names: list[str], tournament: set[str],
             solvers: dict[str, Callable[[Entry], Result]], previous: dict[str, dict[str, float]],
             latest: Path) -> None:
    """Every set's puzzles by every solver in turn, then the tables."""
    base = puzzles_dir()

    summary: dict[str, dict[str, float]] = {}
    rows: list[Row] = []
    survey: list[tuple[str, str, str, dict[str, float]]] = []
    totals: dict[str, Run] = {}
    for name in names:
        entries = load_set(name, base)[: args.limit]
        runs = {m: Run() for m in [*solvers, *([] if args.no_sat else [SAT])]}
        sampled = set(random.Random(name).sample(range(len(entries)), min(SAMPLE, len(entries))))
        for k, e in enumerate(entries):
            statuses = {}
            for m, solve in solvers.items():
                statuses[m] = run_one(solve, e, runs[m], k in sampled).status
                if args.each:
                    print_each(name, e, m, runs[m])
            if not args.no_sat:
                timeout = (args.sat_timeout if name in ("survey", "hardest") or name.startswith("random")
                           else None)
                statuses[SAT] = run_one(sat_baseline(timeout), e, runs[SAT], k in sampled).status
                if args.each:
                    print_each(name, e, SAT, runs[SAT])
            proven = {s for s in statuses.values() if s != "unknown"}
            if len(proven) > 1:
                sys.exit(f"status mismatch on {name} {e.label}: {statuses}")
            if name == "survey":
                survey.append((e.label, e.puzzle.size, "/".join(sorted(proven)) or "unknown",
                               {m: r.seconds[-1] for m, r in runs.items()}))
        if name in tournament:
            for m, run in runs.items():
                t = totals.setdefault(m, Run())
                t.seconds += run.seconds
                t.statuses += run.statuses
                t.wrong += run.wrong
                t.checked += run.checked
        add_rows(name, runs, summary, previous, rows)
    if totals:
        add_rows(f"all {len(tournament)} sets", totals, summary, previous, rows)

    print("\ngridsolve vs a SAT baseline (python-sat CaDiCaL 1.9.5, block-start CNF), "
          "count to 2, one core, same run\n")
    head = ("set", "solver", "puzzles", "solved", "proven", "wrong", "checked", "total s",
            "median s", "max s", "prev total s", "SAT/this")
    table = [head]
    for (name, m, n, solved, n_proven, wrong, checked, total, med, mx, prev, ratio) in rows:
        table.append((name, m, str(n), str(solved), str(n_proven), str(wrong),
                      str(checked), fmt(total),
                      fmt(med), fmt(mx), fmt(prev) if prev is not None else "-",
                      f"{ratio:.1f}x" if ratio else "-"))
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    for i, r in enumerate(table):
        print("  ".join(c.rjust(w) for c, w in zip(r, widths)))
        if i == 0:
            print("  ".join("-" * w for w in widths))
    if survey:
        names = list(survey[0][3])
        print("\nsurvey puzzles (seconds)\n")
        print(f"{'puzzle':<16} {'size':>7} {'status':>9} " + " ".join(f"{m:>12}" for m in names))
        for label, size, status, secs in survey:
            print(f"{label:<16} {size:>7} {status:>9} "
                  + " ".join(f"{fmt(secs[m]):>12}" for m in names))
    RESULTS.mkdir(exist_ok=True)
    latest.write_text(json.dumps({"when": time.strftime("%Y-%m-%d %H:%M:%S"), "sets": summary},
                                 indent=1))


if __name__ == "__main__":
    main()
