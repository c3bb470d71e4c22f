"""Which side of ``auto`` does the work: the native team's and SAT's turns, puzzle by puzzle.

    python benchmarks/auto_sides.py [--sets random50,random70] [--timeout 120]
                                    [--alone native,glucose42,cadical195] [--limit N]

For each puzzle, ``auto`` counting to 2 with every turn logged: which side ran (native team
or SAT, and SAT's model build), CPU seconds, native nodes or SAT conflicts, and the
solutions it found (``+n`` by local moves next to a SAT solution); then the side that ended
the count (a second solution, or an exhausted search). With ``--alone`` each side also
runs alone under the same timeout: ``native`` (the team, ``engine.analyse``) and
``glucose42`` (seeded with the root's cells; auto's SAT side also gets the root's
implications) in CPU seconds, ``cadical195``
(the baseline, a child process) in wall seconds. Every solution is checked against the
clues by the library. Sets as in nonogram.py.
"""

from __future__ import annotations

import argparse
import resource
import time
from collections.abc import Callable
from typing import Any

from gridsolve.nonogram import backends, engine
from gridsolve.nonogram.backends import sat
from gridsolve.nonogram.engine import Result, SearchLimits, Team
from gridsolve.nonogram.policy import DEFAULT_POLICY

from nonogram import load_set, puzzles_dir

Turn = tuple[str, float, int, int]  # side, CPU s, nodes or conflicts, solutions found


def logged_auto(puzzle: Any, limits: SearchLimits) -> tuple[Result, list[Turn], float]:
    """auto's answer, its turns, and its CPU seconds."""
    turns: list[Turn] = []
    run, step, init = Team.run, sat.Search.step, sat.Search.__init__

    def team_run(self: Team, *a: Any, **k: Any) -> bool:
        t, n, f = time.process_time(), self.nodes(), len(self.found)
        try:
            return run(self, *a, **k)
        finally:
            turns.append(("native", time.process_time() - t, self.nodes() - n,
                          len(self.found) - f))

    def sat_step(self: Any) -> Any:
        t, c = time.process_time(), self.conflicts()
        answer = step(self)
        turns.append(("sat=" if answer is False else "sat", time.process_time() - t,
                      self.conflicts() - c, int(answer not in (None, False))))
        return answer

    def sat_init(self: Any, *a: Any, **k: Any) -> None:
        t = time.process_time()
        init(self, *a, **k)
        turns.append(("build", time.process_time() - t, self.size["clauses"], 0))

    Team.run, sat.Search.step, sat.Search.__init__ = team_run, sat_step, sat_init  # type: ignore[method-assign]
    try:
        t = time.process_time()
        result = backends.analyse(puzzle, 2, limits, "auto")
        return result, merged(turns), time.process_time() - t
    finally:
        Team.run, sat.Search.step, sat.Search.__init__ = run, step, init  # type: ignore[method-assign]


def merged(turns: list[Turn]) -> list[Turn]:
    """Consecutive SAT steps (one per solution) as one turn."""
    out: list[Turn] = []
    for side, s, n, f in turns:
        if out and side.startswith("sat") and out[-1][0] == "sat":
            _, s0, n0, f0 = out.pop()
            s, n, f = s0 + s, n0 + n, f0 + f
        out.append((side, s, n, f))
    return out


def alone(method: str, timeout: float) -> Callable[[Any], tuple[Result, float]]:
    """One side alone: the native team, a python-sat solver seeded with the root's cells, or CaDiCaL
    (CPU seconds of its child process); ``METHOD:1`` counts to 1 (time to the first)."""
    name, _, count = method.partition(":")
    n = int(count or 2)

    def run(puzzle: Any) -> tuple[Result, float]:
        limits = SearchLimits(timeout=timeout)
        if name == "native":
            t = time.process_time()
            r = engine.analyse(puzzle, n, limits)
            return r, time.process_time() - t
        if not sat.abilities(name).interrupt:  # run in a child process under a timeout
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            r = sat.analyse(puzzle, n, limits, solver=name)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return r, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        t = time.process_time()
        root = engine.analyse(puzzle, 2, SearchLimits(max_nodes=1)).partial
        r = sat.analyse(puzzle, n, limits, solver=name, known=root)
        return r, time.process_time() - t
    return run


def show(turns: list[Turn]) -> str:
    parts = []
    for side, s, n, f in turns:
        parts.append(f"{side} {s:.2f}s/{n}" + (f" +{f}" if f else ""))
    return ", ".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="random50,random70")
    ap.add_argument("--timeout", type=float, default=120.0, help="per solve (s)")
    ap.add_argument("--alone", default="", help="also alone: native, glucose42, cadical195 (NAME:1 counts to 1)")
    ap.add_argument("--limit", type=int, default=None, help="first N puzzles of each set")
    ap.add_argument("--only", default="", help="comma-separated labels to run")
    args = ap.parse_args()
    base = puzzles_dir()
    limits = SearchLimits(timeout=args.timeout)
    others = [m for m in args.alone.split(",") if m]
    only = {x for x in args.only.split(",") if x}
    p = DEFAULT_POLICY
    print(f"auto_sides: timeout {args.timeout} s, auto's SAT share {p.sat_share}, "
          f"first turn {p.first_work:,} work ({p.first_work_large:,} over {p.small_cells} "
          f"cells) / {p.auto_nodes} nodes", flush=True)
    for name in args.sets.split(","):
        for e in load_set(name, base)[:args.limit]:
            if only and e.label not in only:
                continue
            r, turns, cpu = logged_auto(e.puzzle, limits)
            native_s = sum(s for side, s, _, _ in turns if side == "native")
            sat_s = sum(s for side, s, _, _ in turns if side.startswith(("sat", "build")))
            print(f"{e.label:<10} auto {r.status:>8} {cpu:7.2f}s (native {native_s:.2f}s "
                  f"{r.stats.get('native_nodes', r.nodes)} nodes, SAT {sat_s:.2f}s "
                  f"{r.stats.get('sat_conflicts', 0)} conflicts; nearby "
                  f"{r.stats.get('nearby', 0)}): {show(turns)}", flush=True)
            for m in others:
                ro, s = alone(m, args.timeout)(e.puzzle)
                print(f"{'':<10} {m:<12} {ro.status:>8} {len(ro.solutions)} sol {s:7.2f}s nodes/conflicts {ro.nodes}",
                      flush=True)


if __name__ == "__main__":
    main()
