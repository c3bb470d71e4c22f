"""How hard is a nonogram? The weakest solving method that finishes it, and the work it takes.

Glossary
    level   ``line``: line logic alone (each row or column solved on its own, repeated to a
            fixpoint) finishes the grid, like a magazine puzzle; ``probe``: line logic plus
            single-cell probing (assume a cell, propagate, learn from contradictions) at the
            root finishes it; ``search``: only trial and error (depth-first search) does
            (for a puzzle without a solution: what finds that its clues contradict)
    sweeps  line solves per line (``line_solves / (width + height)``): how often, on average,
            a line had to be looked at again before line logic reached its fixpoint
    score   1..10, from the level and the work inside that level; see ``SCORE_TABLE``

The levels are decided by the engine itself: "line" means the root of a search without
probing is complete, "probe" that the root with probing is, so the level always agrees with
the path the solver actually needed. A limit that stops a root before it ends leaves the
level unknown (None).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from gridsolve.nonogram.engine import Result, SearchLimits, Status, analyse, least
from gridsolve.nonogram.model import UNKNOWN, AnyPuzzle

__all__ = ["Level", "LEVELS", "Rating", "rate", "score_of", "work_of", "SCORE_TABLE"]

Level = Literal["line", "probe", "search"]
LEVELS: tuple[Level, ...] = ("line", "probe", "search")

#: Per level: (score range, work measure, work at the low end, work at the high end).
#: Work at or below the low value scores the range's low end, at or above the high value its
#: high end, log-linear in between. Calibrated with ``benchmarks/rating.py`` on the shared
#: corpora (all 2,338 janko.at magazine puzzles; 400 tournament 25x25 boards):
#: "line" splits at 3.5, 4.9 and 6.7 sweeps, near the quartiles of janko's line puzzles
#: (3.46, 4.64, 6.16); "probe" splits at 0.032 and 0.50 probes per cell, janko's probe
#: median (0.03) and 90th percentile (0.49); "search" splits at 21 and 144 nodes (janko's
#: and the tournaments' unique search puzzles need 3 to 41). The counts are this engine's,
#: so a change in its propagation order can move a puzzle by a point.
SCORE_TABLE: dict[Level, tuple[tuple[int, int], str, float, float]] = {
    "line": ((1, 4), "sweeps", 2.6, 8.2),
    "probe": ((5, 7), "probes per cell", 0.002, 8.0),
    "search": ((8, 10), "nodes", 3.0, 1000.0),
}


@dataclass(frozen=True)
class Rating:
    """The verdict on one puzzle: uniqueness, level, score and the numbers behind them."""

    unique: bool
    status: Status
    #: None (and no score) when a limit stopped the rating before the level was known: line
    #: logic, or probing at the root, did not end. A search the limit stopped after its
    #: root is level "search", score 10 (at least as hard as the table goes).
    level: Level | None
    score: int | None
    line_solves: int
    probes: int
    nodes: int
    max_depth: int
    seconds: float
    #: The rating's search was stopped by the limit (its work is then a lower bound), though
    #: ``status`` may be known all the same, from the proof (``rate``'s ``prove``).
    stopped: bool = False

    @property
    def unique_known(self) -> bool | None:
        """``unique``, or None when a limit stopped the rating first (``unique`` is then
        False: not proven): what JSON says, null for "unknown"."""
        return None if self.status == "unknown" else self.unique


def _complete(result: Result) -> bool:
    """Did the root of this search finish it: fix every cell of a unique puzzle, or find that
    the clues contradict each other (no solution, without a branch)?"""
    if result.status == "none":
        return result.stats.get("max_depth", 0) == 0
    return result.status == "unique" and not any(UNKNOWN in row for row in result.partial)


def work_of(level: Level, puzzle: AnyPuzzle, line_solves: int, probes: int, nodes: int) -> float:
    """The work measure that grades puzzles within one level (see the glossary)."""
    if level == "line":
        return line_solves / (puzzle.width + puzzle.height)
    if level == "probe":
        return probes / (puzzle.width * puzzle.height)
    return float(nodes)


def score_of(level: Level, work: float) -> int:
    """The 1..10 score of a level and its work measure (log-linear inside the level's range)."""
    (low, high), _, lo, hi = SCORE_TABLE[level]
    if work <= lo:
        return low
    if work >= hi:
        return high
    frac = math.log(work / lo) / math.log(hi / lo)
    return min(high, low + int(frac * (high - low + 1)))


#: Seconds the rating's search may take after the proof found more than one solution or
#: none (its level and score then only grade a puzzle that is not one): the proof said what
#: matters, and the search alone can take minutes to say it again (a random 60x60).
SEARCH_AFTER_PROOF = 5.0

#: What proves uniqueness for ``rate``: (puzzle, max_solutions, limits) -> Result.
Prove = Callable[[AnyPuzzle, int, SearchLimits], Result]


def rate(puzzle: AnyPuzzle, limits: SearchLimits = SearchLimits(),
         prove: Prove | None = None, seen: dict[str, int] | None = None) -> Rating:
    """Rate a puzzle: is it unique, which level solves it, and how much work that takes.

    ``limits`` bound the whole rating: its timeout covers line logic alone (on 1000x1000
    seconds of work) and the search after it. With ``prove`` (the solve command's analysis),
    uniqueness is that proof's answer, run first when line logic does not finish the grid;
    the rating's own search (which grades the level and score) has the time left after it.
    ``seen`` (if given) is told what is known as it is known, for a caller stopped before the
    end (Ctrl-C): ``line_open``, the cells line logic alone leaves open."""
    start = time.perf_counter()
    until = limits.deadline(start)
    line = analyse(puzzle, 2, replace(limits, max_nodes=1), probing=False)
    if seen is not None and line.stats.get("root_complete", 1):
        seen["line_open"] = sum(row.count(UNKNOWN) for row in line.partial)
    level: Level | None
    proof: Result | None = None
    if _complete(line):
        level, result = "line", line
    elif not line.stats.get("root_complete", 1):  # the clock stopped line logic itself
        level, result = None, line
    else:
        search_until = until
        if prove is not None:
            proof = prove(puzzle, 2, limits.until(until))
            if proof.status in ("multiple", "none"):
                search_until = least(until, time.perf_counter() + SEARCH_AFTER_PROOF)
        # single-cell probing and one search, as the levels and the score table are defined
        result = analyse(puzzle, 2, limits.until(search_until), probing=True,
                         implications=False, team=False)
        level = ("probe" if _complete(result) else
                 "search" if result.stats.get("root_complete", 1) else None)
    status = result.status
    if proof is not None and proof.status != "unknown":
        status = proof.status
    stats = result.stats
    line_solves, probes = stats.get("line_solves", 0), stats.get("probes", 0)
    nodes, depth = stats.get("nodes", result.nodes), stats.get("max_depth", 0)
    score: int | None = None
    if level is not None:
        work = work_of(level, puzzle, line_solves, probes, nodes)
        score = 10 if result.status == "unknown" else score_of(level, work)
    return Rating(unique=status == "unique", status=status, level=level,
                  score=score, line_solves=line_solves, probes=probes, nodes=nodes,
                  max_depth=depth, seconds=time.perf_counter() - start,
                  stopped=result.status == "unknown")
