"""Colour nonogram benchmark: the native colour engine and auto against a SAT baseline.

    python benchmarks/colour.py [--sets PATTERNS] [--timeout S] [--random N] [--previous REV]
    python benchmarks/colour.py --sets 'rnd40-*,corpus' --random 2 --timeout 10   # a quick look

The full table for issue 55, against 629b277 (main before the colour work of issue 55);
about an hour or more by our 10 s probes, most of it in rnd50-4c-60 and rnd60-3c-50, where
puzzles run to the timeout:

    python benchmarks/colour.py --random 10 --timeout 30 --previous 629b277

Sets (``--sets``: comma-separated names or shell patterns, e.g. ``'rnd*-4c-*,corpus'``;
all of them by default):
  corpus        every colour puzzle in ../shared/puzzles (Olšák .g, pynogram INI, nonogrid TOML)
  rnd30-50      N random 30x30 pictures, 3 colours, half the cells background (seeded)
  rnd30-60      N random 30x30 pictures, 3 colours, 60% background: many solutions, hard
  rnd{S}-{C}c-{B}  N random SxS pictures of C colours, B% background, seeded by S, C and B:
                by default sizes 20-60 by 10, 2, 3, 4 or 6 colours, 50% and 60% background,
                but where no solver proved the first puzzle in 10 s a lower background
                (``BEYOND``: 2 colours at 50x50 and 60x60 take 45%) or none; any other
                such name is made on request, e.g. ``rnd45-5c-55``. The more colours and
                the less background, the easier: the step from proven in 1 s to out of
                reach is 5-10 points of background
  bw-as-colour  one-colour copies of 100 taai2011 puzzles: the general colour engine against
                the black-and-white engine on the same puzzles (the price of generality)

Each puzzle is solved to a proven status (count to 2) by each solver under the timeout. The
SAT baseline is python-sat's CaDiCaL 1.9.5 on the colour block-start encoding
(gridsolve.nonogram.backends.sat), in the same process. Every solution is checked against the
clues here, a random puzzle's "unique" against the picture it was drawn from, and proven
statuses must agree between solvers: a wrong answer or a mismatch stops the run. With
``--previous REV`` an earlier version (built from git, ``previous.py``) runs its ``auto`` on
every puzzle in the same run, in a child process (the row ``auto@REV``; its own seconds).
Per set and solver the table gives the total, the median and the worst case (seconds and
which puzzle); puzzles not proven within the timeout are counted (their time is the timeout)
and listed. Issue 55's target, "random colour puzzles up to 40x40 with 4 colours are proven
within 2 s each", gets a line per solver: how many of those puzzles met it, and the worst.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import random
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from nonogram import Previous, puzzles_dir  # noqa: E402  (the sibling benchmark's)
from previous import built  # noqa: E402  (an earlier version built from git)

from gridsolve.nonogram import backends  # noqa: E402
from gridsolve.nonogram.backends import sat  # noqa: E402
from gridsolve.nonogram.engine import Result, SearchLimits  # noqa: E402
from gridsolve.nonogram.engine import analyse as bw_analyse  # noqa: E402
from gridsolve.nonogram.formats import iter_entries, read_entry  # noqa: E402
from gridsolve.nonogram.model import (WHITE, Colour, ColourPuzzle, Puzzle,  # noqa: E402
                                      as_colour, colour_puzzle_from_grid, is_any_solution)

CORPUS = [
    *(f"olsak-examples-via-pbnsolve/{n}.g" for n in
      ("acorn", "alladin", "bird2", "dvekocky", "oko", "raketa", "rose", "ruze", "viceres")),
    "pynogram-examples/uk.txt", "pynogram-examples/apples.txt", "nonogrid-examples/UK.toml",
]
#: The inks of random pictures, the first C of them for C colours (names only label them).
INKS = (Colour("red", (220, 40, 40), "r"), Colour("green", (40, 160, 60), "g"),
        Colour("blue", (40, 80, 220), "b"), Colour("orange", (240, 140, 0), "o"),
        Colour("purple", (128, 0, 128), "p"), Colour("brown", (139, 69, 19), "n"),
        Colour("teal", (0, 128, 128), "t"), Colour("grey", (128, 128, 128), "a"))
SIZES, COLOURS, BACKGROUNDS = (20, 30, 40, 50, 60), (2, 3, 4, 6), (50, 60)
#: Sets of that grid where no solver (native, auto, CaDiCaL) proved puzzle #0 within 10 s
#: (2026-12-07, a busy machine): a lower background where it was hard but proven, or none.
#: They are still made when named (``--sets rnd60-2c-60``).
BEYOND = {"rnd40-2c-60": None, "rnd40-3c-60": "rnd40-3c-55", "rnd50-2c-50": "rnd50-2c-45",
          "rnd50-2c-60": None, "rnd50-3c-60": None, "rnd60-2c-50": "rnd60-2c-45",
          "rnd60-2c-60": None, "rnd60-3c-60": None, "rnd60-4c-60": "rnd60-4c-55"}
RANDOM = re.compile(r"rnd(\d+)-(\d+)c-(\d+)")
#: Issue 55: "random colour puzzles up to 40x40 with 4 colours are proven within 2 s each".
TARGET_SIZE, TARGET_COLOURS, TARGET_SECONDS = 40, 4, 2.0
SAT = "sat-baseline"

Case = tuple[str, ColourPuzzle, tuple[str, ...] | None]  # label, puzzle, the picture drawn
Solver = Callable[[ColourPuzzle | Puzzle], Result]


def random_set(n: int, size: int, colours: int, background: float, seed: int) -> list[Case]:
    """``n`` seeded random pictures (puzzle i is the same whatever ``n``) and their puzzles."""
    if not 1 <= colours <= len(INKS):
        sys.exit(f"--sets: {colours} colours: at most {len(INKS)}")
    rng = random.Random(seed)
    symbols = "".join(c.symbol for c in INKS[:colours])
    out: list[Case] = []
    for i in range(n):
        grid = tuple("".join("." if rng.random() < background else rng.choice(symbols)
                             for _ in range(size)) for _ in range(size))
        out.append((f"#{i}", colour_puzzle_from_grid(grid, (WHITE, *INKS[:colours])), grid))
    return out


def corpus_set(base: Path) -> list[Case]:
    """The shared colour puzzles that are present."""
    out: list[Case] = []
    for rel in CORPUS:
        path = base / rel
        if path.exists():
            puzzle = read_entry(str(path)).puzzle
            assert isinstance(puzzle, ColourPuzzle), rel
            out.append((path.name, puzzle, None))
    return out


def set_names() -> list[str]:
    """Every set run by default, in the order of the tables."""
    grid = [f"rnd{s}-{c}c-{b}" for s in SIZES for c in COLOURS for b in BACKGROUNDS]
    hard = [n if n not in BEYOND else BEYOND[n] for n in grid]
    return ["corpus", "rnd30-50", "rnd30-60", *sorted(filter(None, hard), key=_order),
            "bw-as-colour"]


def _order(name: str) -> tuple[int, ...]:
    """Random sets by size, colours, background."""
    m = RANDOM.fullmatch(name)
    assert m is not None, name
    return tuple(map(int, m.groups()))


def chosen_sets(patterns: str) -> list[str]:
    """The sets ``--sets`` names (patterns over the default sets, or any ``rnd{S}-{C}c-{B}``)."""
    known, out = set_names(), []
    for pat in filter(None, (p.strip() for p in patterns.split(","))):
        hits = fnmatch.filter(known, pat) or ([pat] if RANDOM.fullmatch(pat) else [])
        if not hits:
            sys.exit(f"--sets: no set matches {pat!r} (sets: corpus, rnd30-50, rnd30-60, "
                     "rnd{size}-{colours}c-{background%}, bw-as-colour)")
        out += [h for h in hits if h not in out]
    return sorted(out, key=known.index) if all(h in known for h in out) else out


def make_set(name: str, n: int, base: Path) -> list[Case]:
    """The puzzles of one colour set (not bw-as-colour)."""
    if name == "corpus":
        return corpus_set(base)
    if name in ("rnd30-50", "rnd30-60"):
        # red, green and blue, as these two sets always were
        return random_set(n, 30, 3, int(name[-2:]) / 100, 1 if name == "rnd30-50" else 2)
    m = RANDOM.fullmatch(name)
    assert m is not None, name
    size, colours, background = map(int, m.groups())
    if not 0 <= background <= 100:
        sys.exit(f"--sets: {name}: background is a percentage")
    return random_set(n, size, colours, background / 100, size * 10_000 + colours * 100 + background)


def in_target(name: str) -> bool:
    """Is this set one of issue 55's target (random, up to 40x40, 4 colours)?"""
    m = RANDOM.fullmatch(name)
    return m is not None and int(m[1]) <= TARGET_SIZE and int(m[2]) == TARGET_COLOURS


def solvers(timeout: float, previous: dict[str, Solver]) -> dict[str, Solver]:
    """The solvers of a row group, in the tables' order, counting to 2 under the timeout."""
    limits = SearchLimits(timeout=timeout)
    return {
        "native": lambda p: backends.analyse(p, 2, limits, "native"),
        "auto": lambda p: backends.analyse(p, 2, limits, "auto"),
        **previous,
        # pinned to block starts: the baseline stays what it was when gridsolve's own
        # choice of model changes (cnf.encoding_for)
        SAT: lambda p: sat.analyse(p, 2, limits, solver="cadical195", encoding="start"),
    }


@dataclass
class Run:
    """One solver's seconds and statuses on one set, puzzle by puzzle."""

    labels: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)

    def unproven(self) -> list[str]:
        """The puzzles this solver left unknown (its timeout)."""
        return [lb for lb, s in zip(self.labels, self.statuses) if s == "unknown"]

    def worst(self) -> tuple[float, str]:
        """The most seconds on one puzzle, and which."""
        return max(zip(self.seconds, self.labels), default=(0.0, "-"))


def solve_one(solve: Solver, case: Case, own: bool, where: str) -> tuple[float, str]:
    """Wall seconds and status, every solution checked here; ``own``: the seconds the solver
    measured itself (an earlier version's child, whose wall time here would add the puzzle's
    trip to it and back)."""
    label, puzzle, picture = case
    t = time.perf_counter()
    result = solve(puzzle)
    seconds = result.seconds if own else time.perf_counter() - t
    if not all(is_any_solution(puzzle, g) for g in result.solutions):
        sys.exit(f"wrong solution on {where}: a grid that does not fit the clues")
    if picture is not None and (result.status == "none" or result.status == "unique"
                                and tuple(result.solutions[0]) != picture):
        sys.exit(f"wrong answer on {where}: {result.status}, but the picture drawn is a solution")
    return seconds, result.status


def run_set(name: str, cases: list[Case], timeout: float,
            previous: dict[str, Solver]) -> tuple[dict[str, Run], list[tuple[str, ...]]]:
    """Every puzzle of a set with every solver: the runs, and a row per puzzle."""
    table = solvers(timeout, previous)
    runs = {m: Run() for m in table}
    rows: list[tuple[str, ...]] = []
    for case in cases:
        label, puzzle, _ = case
        statuses = {}
        for m, solve in table.items():
            dt, status = solve_one(solve, case, m in previous, f"{name} {label} ({m})")
            runs[m].labels.append(label)
            runs[m].seconds.append(dt)
            runs[m].statuses.append(status)
            statuses[m] = status
        known = {s for s in statuses.values() if s != "unknown"}
        if len(known) > 1:
            sys.exit(f"status mismatch on {name} {label}: {statuses}")
        rows.append((label, puzzle.size, str(len(puzzle.palette) - 1),
                     "/".join(known) or "unknown", *(fmt(r.seconds[-1]) for r in runs.values())))
    return runs, rows


def set_rows(name: str, runs: dict[str, Run]) -> list[tuple[str, ...]]:
    """A row per solver: puzzles, answers, total, median, the worst and where, SAT's ratio."""
    sat_total = sum(runs[SAT].seconds)
    out: list[tuple[str, ...]] = []
    for m, r in runs.items():
        total = sum(r.seconds)
        worst, where = r.worst()
        answers = f"{r.statuses.count('unique')}/{r.statuses.count('multiple')}"
        out.append((name, m, str(len(r.seconds)), answers, str(len(r.unproven())), fmt(total),
                    fmt(statistics.median(r.seconds)) if r.seconds else "-", fmt(worst), where,
                    f"{sat_total / total:.1f}x" if m != SAT and total else "-"))
    return out


def target_lines(results: dict[str, dict[str, Run]]) -> list[str]:
    """Issue 55's target per solver: how many of its puzzles were proven within 2 s, the worst."""
    sets = [n for n in results if in_target(n)]
    if not sets:
        return [f"not run: no set up to {TARGET_SIZE}x{TARGET_SIZE} with {TARGET_COLOURS} "
                "colours was chosen (e.g. --sets 'rnd*-4c-*')"]
    lines = [f"sets {', '.join(sets)}"]
    for m in results[sets[0]]:
        met, count, worst = 0, 0, (0.0, "-")
        for n in sets:
            r = results[n][m]
            met += sum(s != "unknown" and t <= TARGET_SECONDS
                       for t, s in zip(r.seconds, r.statuses))
            count += len(r.seconds)
            t, lb = r.worst()
            worst = max(worst, (t, f"{n} {lb}"))
        unproven = sum(len(results[n][m].unproven()) for n in sets)
        lines.append(f"{m:>{max(map(len, results[sets[0]]))}}: {met} of {count} met it "
                     f"({'all' if met == count else 'NOT all'}); worst {fmt(worst[0])} s "
                     f"({worst[1]}); not proven {unproven}")
    return lines


def price_of_generality(base: Path, timeout: float) -> str:
    """One-colour copies of B&W puzzles: the colour engine against the B&W engine."""
    taai = list(iter_entries(str(base / "nonogramrecord-tournaments/question/taai2011.txt")))[:100]
    bw_secs, col_secs = 0.0, 0.0
    for e in taai:
        assert isinstance(e.puzzle, Puzzle)
        t = time.perf_counter()
        bw = bw_analyse(e.puzzle, 2, SearchLimits(timeout=timeout))
        bw_secs += time.perf_counter() - t
        t = time.perf_counter()
        col = backends.analyse(as_colour(e.puzzle), 2, SearchLimits(timeout=timeout), "native")
        col_secs += time.perf_counter() - t
        if bw.status != col.status:
            sys.exit(f"status mismatch on taai2011 {e.label}: {bw.status} / {col.status}")
    return (f"black-and-white taai2011 #0-#99 (count to 2): B&W engine {fmt(bw_secs)} s, "
            f"colour engine on one-colour copies {fmt(col_secs)} s "
            f"({col_secs / bw_secs:.1f}x; B&W puzzles always go to the B&W engine)")


def fmt(x: float) -> str:
    """Seconds as the tables print them."""
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def print_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """Right-aligned columns under a ruled header."""
    table = [head, *rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    for i, r in enumerate(table):
        print("  ".join(c.rjust(w) for c, w in zip(r, widths)))
        if i == 0:
            print("  ".join("-" * w for w in widths))


def run(args: argparse.Namespace, previous: dict[str, Solver]) -> None:
    """Every chosen set with every solver, and the tables."""
    base = puzzles_dir()
    names = chosen_sets(args.sets)
    started = time.perf_counter()
    results: dict[str, dict[str, Run]] = {}
    rows: list[tuple[str, ...]] = []
    corpus_rows: list[tuple[str, ...]] = []
    for name in names:
        if name == "bw-as-colour":
            continue
        t = time.perf_counter()
        runs, puzzle_rows = run_set(name, make_set(name, args.random, base), args.timeout,
                                    previous)
        results[name] = runs
        rows += set_rows(name, runs)
        if name == "corpus":
            corpus_rows = puzzle_rows
        print(f"{name}: {len(puzzle_rows)} puzzles, {time.perf_counter() - t:.1f} s",
              file=sys.stderr, flush=True)
    price = price_of_generality(base, args.timeout) if "bw-as-colour" in names else ""

    solver_names = list(solvers(args.timeout, previous))
    print(f"\ncolour nonograms: gridsolve vs a SAT baseline (CaDiCaL 1.9.5, colour block-start "
          f"CNF), count to 2, {args.timeout:g} s limit, {args.random} per random set, one core, "
          "same run\n")
    if rows:
        print_table(("set", "solver", "puzzles", "unique/multiple", "unproven", "total s",
                     "median s", "max s", "worst", "SAT/this"), rows)
    unproven = [(n, lb, ", ".join(m for m, r in runs.items() if lb in r.unproven()))
                for n, runs in results.items() for lb in runs[SAT].labels
                if any(lb in r.unproven() for r in runs.values())]
    print(f"\nnot proven within {args.timeout:g} s: "
          + (f"{len(unproven)} puzzles\n" if unproven else "none"))
    if unproven:
        print_table(("set", "puzzle", "solvers"), unproven)
    print(f"\nissue 55 target: random colour puzzles up to {TARGET_SIZE}x{TARGET_SIZE} with "
          f"{TARGET_COLOURS} colours proven within {TARGET_SECONDS:g} s each")
    for line in target_lines(results):
        print("  " + line)
    if corpus_rows:
        print("\nshared colour puzzles (seconds)\n")
        print_table(("puzzle", "size", "colours", "status", *solver_names), corpus_rows)
    if price:
        print("\n" + price)
    print(f"\n(whole run {time.perf_counter() - started:.0f} s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--sets", default="*", metavar="PATTERNS",
                    help="comma-separated set names or patterns (default: all)")
    ap.add_argument("--timeout", type=float, default=30.0, help="per puzzle and solver (s)")
    ap.add_argument("--random", type=int, default=10, help="puzzles per random set")
    ap.add_argument("--previous", metavar="REV", default="",
                    help="also run auto of an earlier version (a git revision)")
    args = ap.parse_args()
    with contextlib.ExitStack() as stack:
        previous: dict[str, Solver] = {}
        if args.previous:
            src = stack.enter_context(built(args.previous))
            if src is None:
                sys.exit(f"--previous: {args.previous} could not be archived or built")
            child = Previous(src, "auto", args.timeout)
            stack.callback(child.close)
            previous[f"auto@{args.previous}"] = lambda p: child.solve(p, "a colour puzzle")
        run(args, previous)


if __name__ == "__main__":
    main()
